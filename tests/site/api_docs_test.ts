/**
 * The API reference's "source" links (issue 24 item 10): `deno doc --html` writes the
 * `file://` paths of the machine that built it; the generator points them into the
 * repository, or nowhere. Runs the generator itself (`deno doc`, seconds), not the site build.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { buildApiDocs, repoSourceLinks } from "../../site/lib/api_docs.ts";

const FILES = "https://github.com/o/r/blob/abc123";

async function pages(dir: string): Promise<string[]> {
  const out: string[] = [];
  for await (const e of Deno.readDir(dir)) {
    const p = join(dir, e.name);
    if (e.isDirectory) out.push(...await pages(p));
    else if (e.name.endsWith(".html")) out.push(p);
  }
  return out;
}

Deno.test("repoSourceLinks: a source button links into the repository, or to nothing", () => {
  const html =
    `<a\n  class="sourceButton"\n  href="file:&#x2F;&#x2F;&#x2F;r&#x2F;core&#x2F;x.ts"><svg>`;
  assert.equal(
    repoSourceLinks(html, "/r", FILES),
    `<a\n  class="sourceButton" href="${FILES}/core/x.ts"><svg>`,
  );
  assert.equal(repoSourceLinks(html, "/r"), `<a\n  class="sourceButton"><svg>`);
  assert.equal(repoSourceLinks(html, "/elsewhere", FILES), `<a\n  class="sourceButton"><svg>`);
});

Deno.test("the generated API pages hold no file:// link, with and without a repository URL", async () => {
  const tmp = await Deno.makeTempDir({ prefix: "hs-api-docs-" });
  try {
    for (const [name, files] of [["linked", FILES], ["unlinked", undefined]] as const) {
      const out = join(tmp, name);
      await buildApiDocs(out, files);
      const all = await pages(out);
      assert.ok(all.length > 100, `${all.length} pages`);
      let linked = 0;
      for (const p of all) {
        const html = await Deno.readTextFile(p);
        assert.doesNotMatch(html, /file:(\/|&#x2F;)/, p);
        if (html.includes(`href="${FILES}/`)) linked++;
      }
      if (files) assert.ok(linked > 100, `${linked} pages link their source`);
      else assert.equal(linked, 0);
    }
  } finally {
    await Deno.remove(tmp, { recursive: true });
  }
});
