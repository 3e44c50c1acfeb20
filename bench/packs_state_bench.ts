/**
 * Pack states (issue 14): the `call/method` round trip from a bot's Scheme tool to a state's
 * method and back (grant, ABI, both schemas, the handler), a command that appends to a
 * durable log, and reopening a 10,000-entry project log (read every chunk, fold every entry
 * through the Scheme reducer).
 *
 * `deno bench -A bench/packs_state_bench.ts`; medians: `deno run -A bench/packs_state_report.ts`
 *
 * @module
 */
import { freshStates, stateBench, writeProjectLog } from "./packs_state_setup.ts";

const b = await stateBench();
const one = b.tool("one");
const many = b.tool("many");
const add = b.tool("add");

Deno.bench("tool call with one call/method query (project state)", async () => {
  const r = await one.execute({}, {} as never);
  if (r.isError) throw new Error(JSON.stringify(r));
});
Deno.bench("100 call/method queries inside one tool call", async () => {
  const r = await many.execute({ n: 100 }, {} as never);
  if (r.isError) throw new Error(JSON.stringify(r));
});
Deno.bench("tool call with one call/method command (durable global log append)", async () => {
  const r = await add.execute({}, {} as never);
  if (r.isError) throw new Error(JSON.stringify(r));
});

writeProjectLog(b, 10_000);
Deno.bench("reopen a 10,000-entry project log (read + fold)", async () => {
  const s = await freshStates(b).instance("nb", "project");
  if (s.revision !== 10_000) throw new Error(`revision ${s.revision}`);
});

globalThis.addEventListener("unload", () => {
  b.close();
});
