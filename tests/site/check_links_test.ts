/**
 * The link checker over a built site: internal links must name a file and
 * `#anchors` an id of the page they point to.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { checkLinks, extractAnchors, extractLinks } from "../../site/lib/links.ts";
import { REPO } from "../../site/lib/paths.ts";

async function site(files: Record<string, string>): Promise<string> {
  const root = await Deno.makeTempDir({ prefix: "hs-links-" });
  for (const [rel, text] of Object.entries(files)) {
    await Deno.mkdir(join(root, rel, ".."), { recursive: true });
    await Deno.writeTextFile(join(root, rel), text);
  }
  return root;
}

const GOOD = {
  "index.html": `<link rel="stylesheet" href="/hs/assets/style.css"><a id="top"></a>
    <a href="/hs/guide/a.html#sources-and-narrowing">a</a> <a href='guide/'>guide</a>
    <a href="#top">top</a> <a href="https://example.com/x#y">out</a> <a href="mailto:x@y">m</a>
    <img src="./assets/shot.png"> <a href="/hs/guide/a#caf%C3%A9">clean url</a>
    <!-- <a href="/hs/commented-out.html"></a> -->`,
  "assets/style.css": "",
  "assets/shot.png": "",
  "guide/index.html": `<a href="../index.html#top">home</a> <a href="a.html?x=1">q</a>`,
  "guide/a.html": `<h2 id="sources-and-narrowing">S</h2><h2 id="café">C</h2>
    <a href="../api/~/Harness.html">api</a>`,
  "api/~/Harness.html": `<a href="../index.html">up</a>`,
  "api/index.html": `<a href=".&#x2F;~&#x2F;Harness.html">sym</a>`,
};

Deno.test("links: attributes and anchors are read with entities decoded, comments skipped", () => {
  assert.deepEqual(extractLinks(GOOD["api/index.html"]), ["./~/Harness.html"]);
  assert.ok(!extractLinks(GOOD["index.html"]).includes("/hs/commented-out.html"));
  assert.deepEqual([...extractAnchors(GOOD["guide/a.html"])], ["sources-and-narrowing", "café"]);
});

Deno.test("links: a site whose links all resolve passes", async () => {
  const root = await site(GOOD);
  try {
    const r = await checkLinks(root, "/hs/");
    assert.deepEqual(r.broken, []);
    assert.equal(r.pages, 5);
    assert.ok(r.links >= 10, `${r.links} links`);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("links: missing files, missing anchors and links outside the base are reported", async () => {
  const root = await site({
    ...GOOD,
    "guide/b.html": `<a href="a.html#no-such-anchor">x</a> <a href="/hs/missing.html">y</a>
      <a href="/elsewhere/a.html">z</a> <img src="../assets/gone.png"> <a href="../../../etc">w</a>
      <a class="sourceButton" href="file:&#x2F;&#x2F;&#x2F;build&#x2F;core&#x2F;x.ts">src</a>`,
  });
  try {
    const r = await checkLinks(root, "/hs/");
    assert.deepEqual(r.broken.map((b) => [b.file, b.link, b.reason]), [
      ["guide/b.html", "a.html#no-such-anchor", "no anchor #no-such-anchor in guide/a.html"],
      ["guide/b.html", "/hs/missing.html", "no such file"],
      ["guide/b.html", "/elsewhere/a.html", "outside the site's base /hs/"],
      ["guide/b.html", "../assets/gone.png", "no such file"],
      ["guide/b.html", "../../../etc", "no such file"],
      [
        "guide/b.html",
        "file:///build/core/x.ts",
        "a file: link (a path on the machine that built the site)",
      ],
    ]);
    // The CLI (run by CI over site/dist) fails on them and names each one.
    const out = await new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "-A",
        "--config",
        join(REPO, "site", "deno.json"),
        join(REPO, "site", "check_links.ts"),
        root,
        "--base",
        "/hs/",
      ],
      stdout: "piped",
      stderr: "piped",
    }).output();
    const text = new TextDecoder().decode(out.stdout);
    assert.equal(out.code, 1, text);
    assert.match(text, /guide\/b\.html: a\.html#no-such-anchor — no anchor/);
    assert.match(text, /6 broken/);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
