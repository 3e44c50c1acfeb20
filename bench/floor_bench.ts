/**
 * Floor overhead: the policy decision plus the worker round trip of a file
 * tool call, and the cost of spawning a child under bubblewrap next to a plain
 * spawn. `deno bench -A bench/floor_bench.ts`
 */
import { join } from "node:path";
import { type EffectCall, EffectFloor, probeBwrap } from "../core/mod.ts";

const root = Deno.makeTempDirSync({ prefix: "hs-bench-" });
const ws = join(root, "ws");
Deno.mkdirSync(ws, { recursive: true });
Deno.writeTextFileSync(join(ws, "a.txt"), "hello\n".repeat(50));
const floor = EffectFloor.build({ warn: () => {} }, {
  workspace: ws,
  home: join(root, "home"),
  userHome: root,
  env: Deno.env.toObject(),
  isTrusted: () => true,
});
const call = (tool: string, input: unknown): EffectCall => ({
  point: tool === "bash" ? "shell" : tool === "write_file" ? "write" : "read",
  tool,
  owner: { kind: "builtin", id: "core-tools" },
  principal: "main",
  callId: "b",
  input,
});
const fs = floor.effects.fs;
await fs.readFile(join(ws, "a.txt")); // warm the worker

Deno.bench("floor: decide read_file (policy + rules)", { group: "decide" }, async () => {
  await floor.decide(call("read_file", { path: "a.txt" }));
});

Deno.bench("floor: decide bash (shell analysis + rules)", { group: "decide" }, async () => {
  await floor.decide(call("bash", { command: "git status && ls | wc -l" }));
});

Deno.bench("floor: decide write_file (resolved path + control classification)", {
  group: "decide",
}, async () => {
  await floor.decide(call("write_file", { path: "sub/b.txt", content: "x" }));
});

Deno.bench("direct read (no floor)", { group: "file", baseline: true }, async () => {
  await Deno.readFile(join(ws, "a.txt"));
});

Deno.bench("floor: decide + worker round trip (read_file)", { group: "file" }, async () => {
  await floor.decide(call("read_file", { path: "a.txt" }));
  await fs.stat(join(ws, "a.txt"));
  await fs.readFile(join(ws, "a.txt"));
});

const data = new TextEncoder().encode("hello\n".repeat(50));
Deno.bench("floor: decide + worker round trip (write_file)", { group: "file" }, async () => {
  await floor.decide(call("write_file", { path: "b.txt", content: "x" }));
  await fs.writeFileAtomic(join(ws, "b.txt"), data);
});

const probe = await probeBwrap(Deno.env.toObject());

Deno.bench("spawn /bin/true (plain)", { group: "spawn", baseline: true }, async () => {
  await new Deno.Command("/bin/true").output();
});

Deno.bench("spawn /bin/true under bubblewrap (floor args)", {
  group: "spawn",
  ignore: !probe.ok,
}, async () => {
  const spec = await floor.sandbox.prepare(
    { command: "/bin/true", args: [], env: { PATH: "/usr/bin:/bin" }, cwd: ws },
    "bench",
  );
  if ("refused" in spec) throw new Error(spec.refused);
  await new Deno.Command(spec.command, { args: spec.args, env: spec.env, clearEnv: true }).output();
});

globalThis.addEventListener("unload", () => {
  floor.close();
  Deno.removeSync(root, { recursive: true });
});
