/**
 * Issue 27 point 15 (seed 002, "un embedder obtient le défaut sûr"): `Harness.create()`
 * without floor options runs tools under the CLI's workspace preset and OS sandbox, not
 * allow-all; allow-all only when asked for by name. The consequence is checked: whether the
 * file outside the workspace exists afterwards, and what reached the model.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { Harness, type ModelProvider, type RuntimePlugin } from "../../../mod.ts";
import type { EmbeddingOptions } from "../../../plugins/mod.ts";

type Call = { id: string; name: string; input: Record<string, unknown> };

/** A plugin model that makes `calls` once, then answers; it keeps what came back. */
function modelPlugin(calls: Call[], seen: string[]): RuntimePlugin {
  return {
    id: "floor-probe-model",
    version: "1.0.0",
    apiVersion: 1,
    setup(ctx) {
      let i = 0;
      const provider: ModelProvider = {
        name: "probe",
        description: "a scripted model",
        protocol: "anthropic",
        ready: () => Promise.resolve({ ready: true, reason: "scripted" }),
        defaultModel: () => Promise.resolve("probe-1"),
        send(payload, model) {
          seen.push(JSON.stringify(payload.messages ?? payload));
          const first = i++ === 0;
          return Promise.resolve({
            model,
            stop_reason: first ? "tool_use" : "end_turn",
            usage: { input_tokens: 1, output_tokens: 1 },
            content: first
              ? [
                { type: "text", text: "writing" },
                ...calls.map((c) => ({ type: "tool_use", ...c })),
              ]
              : [{ type: "text", text: "done" }],
          });
        },
      };
      ctx.models.register(provider, [{ id: "probe-1" }]);
    },
  };
}

async function scene(
  floor: EmbeddingOptions["floor"],
  into: "outside" | "ws" = "outside",
): Promise<{ bashWrote: boolean; toolWrote: boolean; seen: string }> {
  const root = await Deno.makeTempDir({ prefix: "hs-embed-floor-" });
  const ws = join(root, "ws"), outside = join(root, "outside"), home = join(root, "home");
  for (const d of [ws, outside, home]) await Deno.mkdir(d, { recursive: true });
  const seen: string[] = [];
  const target = into === "ws" ? ws : outside;
  const calls: Call[] = [
    { id: "c1", name: "bash", input: { command: `echo pwned > ${join(target, "by-bash")}` } },
    {
      id: "c2",
      name: "write_file",
      input: { path: join(target, "by-tool"), content: "pwned" },
    },
  ];
  const h = await Harness.create({
    cwd: ws,
    env: {
      HOME: root,
      HARNESS_HOME: home,
      HARNESS_LOG: join(root, "log"),
      PATH: Deno.env.get("PATH"),
    },
    ephemeral: true,
    config: { runtimePlugins: [] },
    log: () => {},
    runtimePlugins: [{ plugin: modelPlugin(calls, seen) }],
    ...(floor === undefined ? {} : { floor }),
  });
  try {
    await h.run({ message: "go", provider: "probe", model: "probe-1" });
  } finally {
    await h.close();
  }
  const exists = (p: string) => Deno.stat(p).then(() => true, () => false);
  const out = {
    bashWrote: await exists(join(target, "by-bash")),
    toolWrote: await exists(join(target, "by-tool")),
    seen: seen.join("\n"),
  };
  await Deno.remove(root, { recursive: true });
  return out;
}

Deno.test("point 15: Harness.create() without floor options keeps tools inside the workspace", async () => {
  const r = await scene(undefined);
  assert.equal(r.toolWrote, false, "write_file outside the workspace must be refused");
  assert.equal(r.bashWrote, false, "bash writing outside the workspace must not land");
  // the model was told why, with the floor's words
  assert.match(r.seen, /permission denied/i);
});

Deno.test("point 15: the default still lets tools write inside the workspace", async () => {
  const r = await scene(undefined, "ws");
  assert.equal(r.toolWrote, true);
  assert.equal(r.bashWrote, true);
});

Deno.test("point 15: a preset named by the embedder is the floor (read-only refuses a workspace write)", async () => {
  const r = await scene("read-only", "ws");
  assert.equal(r.toolWrote, false);
  assert.equal(r.bashWrote, false);
  const flags = await scene({ preset: "read-only" }, "ws");
  assert.equal(flags.toolWrote, false);
});

Deno.test("point 15: allow-all only when asked for by name", async () => {
  const r = await scene("allow-all");
  assert.equal(r.toolWrote, true);
  assert.equal(r.bashWrote, true);
});
