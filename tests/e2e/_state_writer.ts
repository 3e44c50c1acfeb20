/**
 * A child process for the kill -9 tests: opens the harness of a workspace (its packs loaded)
 * and calls the `nb` notebook's `add` through the `plugin/method` session verb in a loop,
 * printing each revision it reached, until it is killed.
 *
 * Usage: deno run -A _state_writer.ts <scope> [session-dir]
 */
import { basename } from "node:path";
import { Harness } from "../../plugins/mod.ts"; // the kernel with its built-in plugins

const [scope, sessionDir] = Deno.args;
const h = await Harness.create({ cwd: Deno.cwd(), env: Deno.env.toObject() });
await h.catalog.refreshSources();
const session = sessionDir ? { id: basename(sessionDir), dir: sessionDir } : undefined;
const filler = "x".repeat(2000);
for (let i = 0;; i++) {
  const out = await h.packs.pluginMethod("nb", {
    plugin: "nb",
    method: "add",
    scope,
    args: { text: `${i} ${filler}` },
  }, { session });
  console.log(String(out));
}
