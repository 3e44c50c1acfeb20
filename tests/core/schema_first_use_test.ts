/**
 * Issue 25, "Load only what a command uses": "zod schemas are built when first used".
 *
 * Every module a run loads is evaluated, so a schema at module level is built by every run that
 * loads its module. The test loads the modules of a turn and of `hs tools` with `zod` replaced
 * by a wrapper that records where each schema constructor was called from (the real zod does
 * the work), then checks that only the schemas every run parses with are built at load, and that
 * a lazily built one is still built — and used — when its file is read.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { configWith, repoImports } from "../support/config_with.ts";
import { REPO } from "../support/workspace.ts";

/**
 * The files whose schemas every run parses with, so building them at load costs nothing extra
 * (each is named with what parses with it on every run).
 */
const PARSED_ON_EVERY_RUN: Record<string, string> = {
  "plugins/providers/setup/conf.ts": "the bundled .conf providers, registered at set-up",
  "core/trust/trust.ts": "trust.json, read by every harness",
  "core/plugins/pages.ts": "the built-ins' pages, validated when they register",
  "plugins/connector_cloud/plugin.ts": "its configuration, parsed at set-up",
};

/** The wrapper: zod's `z` with each function call recorded with the caller's file and line. */
function wrapper(zodSpecifier: string): string {
  return `import { z as real } from ${JSON.stringify(zodSpecifier)};
const builds: string[] = [];
(globalThis as Record<string, unknown>).__schemaBuilds = builds;
function caller(stack: string): string {
  const line = stack.split("\\n").slice(2).find((l) => !l.includes("zod_recorder.ts")) ?? "";
  return line.replace(/^\\s*at /, "").replace(/.*\\((.*)\\)$/, "$1");
}
export const z = new Proxy(real, {
  get(target, key, receiver) {
    const value = Reflect.get(target, key, receiver);
    if (typeof value !== "function" || key === "config") return value;
    return (...args: unknown[]) => {
      builds.push(caller(new Error().stack ?? ""));
      return (value as (...a: unknown[]) => unknown).apply(target, args);
    };
  },
});
`;
}

/**
 * Runs `code` with the recording zod; returns the files (relative to the repo) of the builds, in
 * order, and what `code` printed.
 */
async function buildsOf(code: string): Promise<{ files: string[]; printed: string[] }> {
  const dir = await Deno.makeTempDir({ prefix: "hs-zod-" });
  try {
    await Deno.writeTextFile(join(dir, "zod_recorder.ts"), wrapper((await repoImports()).zod));
    const config = await configWith(dir, { zod: `file://${dir}/zod_recorder.ts` });
    const probe = join(dir, "probe.ts");
    await Deno.writeTextFile(
      probe,
      `${code}\nconsole.log(JSON.stringify((globalThis as Record<string, unknown>).__schemaBuilds));\n`,
    );
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", "-q", "--no-lock", "--config", config, probe],
      stdout: "piped",
      stderr: "piped",
    }).output();
    const text = (b: Uint8Array) => new TextDecoder().decode(b);
    assert.equal(out.code, 0, text(out.stderr));
    const lines = text(out.stdout).trim().split("\n");
    const builds = JSON.parse(lines.pop()!) as string[];
    const files = builds.map((b) => b.replace(`file://${REPO}/`, "").replace(/:\d+:\d+$/, ""));
    return { files, printed: lines };
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

const TURN_MODULES = [
  "plugins/mod.ts",
  "cli/mod.ts",
  "cli/commands/agent.ts",
  "cli/commands/tools.ts",
  "cli/harness/mod.ts",
].map((m) => `await import(${JSON.stringify(join(REPO, m))});`).join("\n");

Deno.test("'zod schemas are built when first used': loading a turn's modules builds only the schemas every run parses with", async () => {
  const files = new Set((await buildsOf(TURN_MODULES)).files);
  // the recorder sees a schema built at load (the bundled providers': parsed by every set-up)
  assert.ok(
    files.has("plugins/providers/setup/conf.ts"),
    `no build recorded: ${[...files].join(", ")}`,
  );
  const extra = [...files].filter((f) => !(f in PARSED_ON_EVERY_RUN));
  assert.deepEqual(
    extra,
    [],
    `schemas built at load that a run may never use: ${extra.join(", ")}`,
  );
});

Deno.test("a schema built on first use is built when its file is first read, once, and still checks the file", async () => {
  const ws = await Deno.makeTempDir({ prefix: "hs-mcp-" });
  try {
    await Deno.writeTextFile(join(ws, ".mcp.json"), JSON.stringify({ mcpServers: { a: {} } }));
    await Deno.mkdir(join(ws, "bad"));
    await Deno.writeTextFile(join(ws, "bad", ".mcp.json"), JSON.stringify({ mcpServers: 1 }));
    const { files: builds, printed } = await buildsOf(`
const { readProjectMcp } = await import(${JSON.stringify(join(REPO, "core/mod.ts"))});
const marks = (globalThis as Record<string, unknown>).__schemaBuilds as string[];
marks.push("#loaded");
const good = readProjectMcp(${JSON.stringify(ws)});
marks.push("#first");
const again = readProjectMcp(${JSON.stringify(ws)});
const bad = readProjectMcp(${JSON.stringify(join(ws, "bad"))});
marks.push("#after");
console.log(JSON.stringify({ good: good?.servers.length, again: again?.servers.length, bad: bad?.problem }));
`);
    // the lazily built schema still checks: two good reads, and the bad file's problem
    assert.deepEqual(JSON.parse(printed[0]), {
      good: 1,
      again: 1,
      bad: 'needs {"mcpServers": {name: {...}}}',
    });
    const at = (mark: string) => builds.indexOf(mark);
    const load = builds.slice(0, at("#loaded"));
    const first = builds.slice(at("#loaded") + 1, at("#first"));
    const later = builds.slice(at("#first") + 1, at("#after"));
    assert.ok(
      !load.includes("core/trust/project_mcp.ts"),
      "project_mcp.ts built its schema at load",
    );
    assert.ok(
      first.length > 0 && first.every((f) => f === "core/trust/project_mcp.ts"),
      first.join(", "),
    );
    assert.deepEqual(later, [], "built again on a later read");
  } finally {
    await Deno.remove(ws, { recursive: true });
  }
});

Deno.test("the settings' schema is built only when a HARNESS_* setting is set, and then checks it", async () => {
  const { files: builds, printed } = await buildsOf(`
const { parseConfig } = await import(${JSON.stringify(join(REPO, "core/config/config.ts"))});
const marks = (globalThis as Record<string, unknown>).__schemaBuilds as string[];
marks.push("#loaded");
const unset = parseConfig({ HARNESS_READ_LIMIT: "", PATH: "/bin" });
marks.push("#unset");
const explicit = parseConfig({
  HARNESS_MAX_TURNS: "100", HARNESS_HOOK_TIMEOUT: "60", HARNESS_EXEC_TIMEOUT: "600",
  HARNESS_TOOL_TIMEOUT: "120", HARNESS_READ_LIMIT: "2000", HARNESS_PROVIDER_TIMEOUT: "600",
  HARNESS_RESULT_LIMIT: "100000", HARNESS_RESULT_FILE_LIMIT: "256M", HARNESS_HOOK_OUTPUT_LIMIT: "64M",
  HARNESS_SESSION_WAIT: "60", HARNESS_COMPACT_AT: "80%", HARNESS_COMPACT_KEEP: "2",
});
let bad = "";
try { parseConfig({ HARNESS_MAX_TURNS: "0" }); } catch (e) { bad = String((e as Error).message); }
console.log(JSON.stringify({ unset, explicit, bad }));
`);
  const { unset, explicit, bad } = JSON.parse(printed[0]);
  const at = (mark: string) => builds.indexOf(mark);
  const fromConfig = (list: string[]) => list.filter((f) => f === "core/config/config.ts");
  assert.deepEqual(fromConfig(builds.slice(0, at("#unset"))), [], "built with no setting set");
  assert.ok(fromConfig(builds.slice(at("#unset"))).length > 0, "never built when set");
  // the defaults of unset variables are the documented values, read as if written out
  const { passThrough: _a, ...defaults } = unset;
  const { passThrough: _b, ...written } = explicit;
  assert.deepEqual(defaults, written);
  assert.equal(defaults.readLimit, 2000);
  assert.equal(bad, 'HARNESS_MAX_TURNS="0": must be a positive whole number');
});
