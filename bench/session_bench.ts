/**
 * `deno bench` form of bench/session_report.ts: one exclusive message append,
 * the per-turn session lock, and resuming a 10,000-message session.
 *
 * @module
 */
import { Session } from "../core/mod.ts";
import { getAdapter } from "../plugins/providers/mod.ts";
import { bigSession } from "./support.ts";

const root = Deno.makeTempDirSync({ prefix: "hs-bench-session-" });
const s = Session.create(root, { cwd: root, model: "m", provider: "p" });
let i = 0;

Deno.bench({
  name: "append one user message (exclusive write)",
  group: "append",
  fn() {
    s.appendUser(`message ${i++}`);
  },
});

Deno.bench({
  name: "append one tool result (exclusive write, under the cap)",
  group: "append",
  fn() {
    s.appendToolResult(`toolu_${i++}`, "read_file", false, "1#ZZ:export const x = 1;");
  },
});

Deno.bench({
  name: "take and release the session lock",
  async fn() {
    await s.lock({ waitMs: 0 });
    s.unlock();
  },
});

const big = await bigSession(10_000);
const adapter = getAdapter("anthropic");

Deno.bench({
  name: "resume a 10,000-message session (open, parse, lock, build the request)",
  n: 5,
  async fn() {
    const r = Session.open(big);
    await r.lock({ waitMs: 0 });
    adapter.buildMessages(r.messages());
    r.unlock();
  },
});
