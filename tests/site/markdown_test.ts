/**
 * The build's markdown helpers: README sections, link rewriting, VitePress-safe
 * paragraphs, unclosed fences, and where links out of docs/ go.
 */
import assert from "node:assert/strict";
import {
  escapeMustaches,
  fencedLines,
  joinTagLines,
  rewriteLinks,
  section,
  unclosedFence,
} from "../../site/lib/markdown.ts";
import { mapLink } from "../../site/lib/sync.ts";
import { REPO } from "../../site/lib/paths.ts";

const README = [
  "# Title",
  "Intro text.",
  "## Install",
  "Run it.",
  "```sh",
  "## not a heading",
  "```",
  "### sub",
  "## Next",
  "more",
].join("\n");

Deno.test("section: the intro, and a ## section up to the next ## (fenced code is not a heading)", () => {
  assert.equal(section(README, "intro"), "Intro text.");
  assert.equal(
    section(README, "Install"),
    "## Install\nRun it.\n```sh\n## not a heading\n```\n### sub",
  );
  assert.throws(() => section(README, "Missing"), /no section "## Missing"/);
});

Deno.test("fences: a longer fence holds shorter ones; a backtick info string with a backtick is inline code", () => {
  const md = "````\n```x\n```\n````\ntext\n  ```` ```y ```` inline\nafter";
  assert.deepEqual(fencedLines(md).map((l) => l.code), [
    true,
    true,
    true,
    true,
    false,
    false,
    false,
  ]);
  assert.equal(unclosedFence(md), undefined);
  assert.equal(unclosedFence("a\n```\nb\n```\n```\nrest"), 5);
  assert.equal(unclosedFence("~~~\n```\n~~~"), undefined);
});

Deno.test("rewriteLinks: links and images outside code are mapped; null keeps the text", () => {
  const md = "[a](x.md) `[b](y.md)` ![i](p.png)\n```\n[c](z.md)\n```";
  const out = rewriteLinks(md, (t) => (t === "x.md" ? "X.md" : t === "p.png" ? "/p.png" : null));
  assert.equal(out, "[a](X.md) `[b](y.md)` ![i](/p.png)\n```\n[c](z.md)\n```");
  assert.equal(rewriteLinks("see [it](gone.md)", () => null), "see it");
});

Deno.test("joinTagLines: a paragraph line starting with <tag> joins the line before", () => {
  assert.equal(
    joinTagLines("4. flags: `--allow-env\n   <list>`, more\n\n<details>\n```\nx\n  <y>\n```"),
    "4. flags: `--allow-env <list>`, more\n\n<details>\n```\nx\n  <y>\n```",
  );
});

Deno.test("mapLink: docs links stay relative pages, README is getting started, others go to the repo", () => {
  const docs = `${REPO}/docs`;
  assert.equal(mapLink("providers.md#performance", docs), "./providers.md#performance");
  assert.equal(mapLink("https://x.y/z", docs), "https://x.y/z");
  assert.equal(mapLink("#here", docs), "#here");
  assert.equal(mapLink("../README.md", docs), "getting-started.md");
  assert.equal(mapLink("../tests/e2e/x_test.ts", docs), null);
  assert.equal(
    mapLink("../tests/e2e/x_test.ts", docs, "https://g/o/r/blob/main"),
    "https://g/o/r/blob/main/tests/e2e/x_test.ts",
  );
  assert.equal(mapLink("../../etc/passwd", docs), null);
  // a committed screenshot is served by the site itself
  assert.equal(
    mapLink("../site/screenshots/web-session.png", docs),
    "/screenshots/web-session.png",
  );
  assert.equal(mapLink("../site/screenshots/web-test/x.png", docs), null);
  // from the README (repository root) into a page of guide/
  assert.equal(mapLink("docs/extending.md", REPO, undefined, "x/guide"), "./extending.md");
});

Deno.test("escapeMustaches: {{ outside fences is not a Vue interpolation; fenced code is left alone", () => {
  assert.equal(
    escapeMustaches("- holes (`{{x}}`) and {{y}} here\n```\n{{z}}\n```"),
    "- holes (<span v-pre>`{{x}}`</span>) and <span v-pre>{{</span>y}} here\n```\n{{z}}\n```",
  );
  assert.equal(escapeMustaches("plain `code` line"), "plain `code` line");
});
