/**
 * Which packs refuse the main agent's runs (core/packs/refusal.ts): a foreground bot that did
 * not load, a pack whose plugin.json did not load (its bots are unknown), a bot whose
 * frontmatter does not parse but says `attach: foreground` — never a named bot's failure, a
 * bot waiting for approval, or a pack the user opted out of. The refusal carries the place.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { GuardApprovals, PackLoadError, Packs } from "../../core/mod.ts";
import { programLoader } from "../../stdlib-harness/mod.ts";

async function packsOf(
  files: Record<string, string>,
  foregroundOff: string[] = [],
): Promise<Packs> {
  const root = await Deno.makeTempDir({ prefix: "hs-refusal-" });
  for (const [name, text] of Object.entries(files)) {
    await Deno.mkdir(join(root, "p", name, ".."), { recursive: true });
    await Deno.writeTextFile(join(root, "p", name), text);
  }
  const packs = new Packs({
    dirs: () => [{ dir: join(root, "p"), source: "test" }],
    dataDir: join(root, "data"),
    approvals: new GuardApprovals(root),
    loader: programLoader,
    places: { workspace: root, home: root, userHome: root },
    foregroundOff: new Set(foregroundOff),
    log: () => {},
  });
  await packs.load();
  return packs;
}

const manifest = JSON.stringify({
  name: "p",
  extensions: { "tools.inhuman": { bots: ["./bots/a.prompt"] } },
});
const bot = (attach: string, front = "") =>
  `---\n${attach}\n${front}behavior:\n  program: ../a.scm\n---\nA.\n`;

Deno.test("a foreground bot whose program does not read refuses, at its file:line:col", async () => {
  const packs = await packsOf({
    "plugin.json": manifest,
    "bots/a.prompt": bot("attach: foreground"),
    "a.scm": "(define x 1)\n(define (f)\n",
  });
  const r = packs.refusal();
  assert.ok(r instanceof PackLoadError);
  assert.equal(r.pack, "p");
  assert.equal(r.bot, "a");
  assert.match(r.location.file, /a\.scm$/);
  assert.equal(r.location.line, 2);
  assert.equal(r.location.col, 1);
  assert.match(r.hint, /"p": \{"foreground": false\}/);
});

Deno.test("a named bot's failure, or a pack opted out, refuses nothing", async () => {
  const named = await packsOf({
    "plugin.json": manifest,
    "bots/a.prompt": bot("scope: session"),
    "a.scm": "(define (f)\n",
  });
  assert.equal(named.refusal(), undefined);
  const off = await packsOf({
    "plugin.json": manifest,
    "bots/a.prompt": bot("attach: foreground"),
    "a.scm": "(define (f)\n",
  }, ["p"]);
  assert.equal(off.refusal(), undefined);
});

Deno.test("a plugin.json that does not load, or a foreground bot whose frontmatter does not, refuses", async () => {
  const broken = await packsOf({ "plugin.json": '{ "name": "p", }' });
  assert.match(broken.refusal()?.message ?? "", /plugin\.json:1:\d+: not valid JSON/);
  assert.equal(broken.refusal()?.location.line, 1);
  const front = await packsOf({
    "plugin.json": manifest,
    "bots/a.prompt": bot("attach: foreground", "tools: read_file\n"),
    "a.scm": "(define x 1)\n",
  });
  assert.match(front.refusal()?.message ?? "", /a\.prompt:3:8: tools: expected a list/);
  assert.equal(front.bots()[0].spec.attach, "foreground", "listed as the foreground bot it is");
});

Deno.test("'An unapproved guard is a load error.': a foreground bot's waiting guards refuse the main agent, unless the person declined them", async () => {
  const packs = await packsOf({
    "plugin.json": manifest,
    "bots/a.prompt": bot("attach: foreground"),
    "a.scm": `(guard/shell :middleware (lambda (raw invoke) (invoke raw)))\n`,
  });
  const b = packs.bots()[0];
  assert.equal(b.status, "awaiting approval");
  const refused = packs.refusal();
  assert.ok(refused);
  assert.match(
    refused.message,
    /its guards wait for approval \(an unapproved guard is a load error\)/,
  );
  assert.match(refused.hint ?? "", /hs packs approve/);
  // asked and declined ("not now"): the person's choice, the run goes on without the bot
  packs.decline(b);
  assert.equal(packs.refusal(), undefined);
});
