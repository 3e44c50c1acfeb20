/**
 * Kernel benchmarks (issue 2): harness overhead of a one-tool turn against a
 * loopback Anthropic SSE server (server time excluded), discovery re-check,
 * assembling a 1,000-message session, resuming a 10,000-message session.
 * Medians and whole-process figures: `deno run -A bench/kernel_report.ts`.
 *
 * Run: deno task bench (or deno bench -A bench/kernel_bench.ts)
 */
import { join } from "node:path";
import { Discovery, Session } from "../core/mod.ts";
import { getAdapter } from "../plugins/providers/mod.ts";
import { bigSession, serverStats, startBenchServer, workspace } from "./support.ts";

const server = startBenchServer();
for (const observers of [false, true]) {
  const { h } = await workspace(server.url, observers);
  // warm up (schema cache, JIT)
  await h.run({ message: "warm", provider: "bench" });
  Deno.bench({
    name: observers
      ? "turn with one tool call, 5 executable observer hooks"
      : "turn with one tool call, built-in hooks",
    group: "turn",
    baseline: !observers,
    async fn(b) {
      b.start();
      const r = await h.run({ message: "go", provider: "bench" });
      b.end();
      if (r.error) throw new Error(r.message);
    },
  });
}

// Discovery re-check with nothing changed
{
  const { root } = await workspace(server.url, true);
  const d = new Discovery({
    cwd: join(root, "ws"),
    home: join(root, "home"),
    isTrusted: () => true,
  });
  d.current();
  Deno.bench({
    name: "discovery re-check, nothing changed",
    group: "discovery",
    fn: () => void d.current(),
  });
}

const adapter = getAdapter("anthropic");
const dir1k = await bigSession(1000);
const s1k = Session.open(dir1k);
Deno.bench({
  name: "assemble a round of a 1,000-message session (index + build messages)",
  group: "session",
  fn() {
    s1k.refresh(false);
    adapter.buildMessages(s1k.messages());
  },
});
const dir10k = await bigSession(10000);
Deno.bench({
  name: "resume a 10,000-message session (open + parse + build messages)",
  group: "session",
  fn() {
    adapter.buildMessages(Session.open(dir10k).messages());
  },
});

addEventListener("unload", () => {
  console.log(
    `loopback server: ${serverStats.count} requests, ${
      serverStats.ms.toFixed(2)
    } ms in its handler`,
  );
  void server.close();
});
