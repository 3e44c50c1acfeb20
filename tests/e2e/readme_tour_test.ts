/**
 * The README's tour, run as written: every fenced block marked `<!-- tour -->`, in order, in one
 * fresh HOME and an empty project folder, each line through bash with `deno task hs` being the
 * launcher of this checkout. The endpoint is a loopback OpenAI-compatible scripted server; the
 * tour's `http://127.0.0.1:8080` is the one word replaced (by that server's address).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { startScriptedServer } from "../../plugins/scripted/mod.ts";
import { floorTestEnv, REPO } from "../support/workspace.ts";

/** The blocks under `<!-- tour -->` markers (other markers may stand between). */
export function tourBlocks(md: string): string[] {
  const lines = md.split("\n");
  const out: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (lines[i].trim() !== "<!-- tour -->") continue;
    let j = i + 1;
    while (j < lines.length && (lines[j].trim() === "" || /^<!--.*-->$/.test(lines[j].trim()))) j++;
    const fence = /^(`{3,})sh\s*$/.exec(lines[j] ?? "");
    if (!fence) throw new Error(`README.md:${i + 1}: a tour marker must stand above a sh block`);
    const body: string[] = [];
    for (j++; j < lines.length && lines[j].trim() !== fence[1]; j++) body.push(lines[j]);
    out.push(body.join("\n") + "\n");
    i = j;
  }
  return out;
}

Deno.test("the README tour runs as written in a fresh HOME (hs init, a question, a tool)", async () => {
  const blocks = tourBlocks(await Deno.readTextFile(join(REPO, "README.md")));
  assert.ok(blocks.length >= 2, `tour blocks: ${blocks.length}`);
  assert.match(blocks[0], /deno task hs init /);
  const server = await startScriptedServer([
    { text: "ok" }, // hs init's check request
    { text: "It is a harness for LLM agents." },
  ]);
  const root = await Deno.makeTempDir({ prefix: "hs-tour-" });
  try {
    const project = join(root, "project");
    await Deno.mkdir(project);
    await Deno.mkdir(join(root, "home"));
    const origin = new URL(server.url).origin;
    const script = [
      "set -eu",
      // `deno task hs` is this checkout's launcher (the README's own command, from elsewhere)
      `deno() { if [ "$1" = task ] && [ "$2" = hs ]; then shift 2; "$DENO_BIN" task -q --config "$HS_REPO/deno.json" hs "$@"; else "$DENO_BIN" "$@"; fi; }`,
      ...blocks.map((b) => b.replaceAll("http://127.0.0.1:8080", origin)),
    ].join("\n");
    const env: Record<string, string> = {
      PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
      HOME: join(root, "home"),
      NO_COLOR: "1",
      LANG: "C.UTF-8",
      DENO_BIN: Deno.execPath(),
      HS_REPO: REPO,
      DENO_DIR: Deno.env.get("DENO_DIR") ?? join(Deno.env.get("HOME") ?? "/root", ".cache", "deno"),
      ...floorTestEnv(),
    };
    const out = await new Deno.Command("bash", {
      args: ["-c", script],
      cwd: project,
      env,
      clearEnv: true,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).output();
    const stdout = new TextDecoder().decode(out.stdout);
    const stderr = new TextDecoder().decode(out.stderr);
    assert.equal(out.code, 0, stdout + stderr);
    assert.match(stdout, /ok: local answered/);
    assert.match(stdout, /It is a harness for LLM agents\./);
    assert.match(stdout + stderr, /current UTC time/);
    assert.equal(server.requests.length, 2);
    // no dummy key went to a loopback server
    assert.equal(server.requests[1].headers["authorization"], undefined);
    const conf = await Deno.readTextFile(join(project, ".harness/providers/local.conf"));
    assert.match(conf, /^auth=none$/m);
    assert.match(conf, new RegExp(`^url=${origin}/v1/chat/completions$`, "m"));
  } finally {
    await server.close();
    await Deno.remove(root, { recursive: true });
  }
});
