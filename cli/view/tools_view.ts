/**
 * The tools the model can call, as `hs tools` and the REPL's `/tools` print them: registered
 * ones and the workspace's executables with who owns each, and the rejected ones.
 *
 * @module
 */
import type { FrontEnd } from "../../core/mod.ts";
import { ownerLabel } from "../../core/base/mod.ts";
import type { CliContext } from "../base/mod.ts";
import { colorEnabled, sanitizeForTerminal as safe, styles } from "./render.ts";

/** Prints the tools the model can call (`hs tools`, the REPL's `/tools`). */
export async function toolsCommand(h: FrontEnd, cli: CliContext): Promise<number> {
  const st = styles(colorEnabled(cli.stdoutIsTerminal));
  const { tools, problems } = await h.catalog.executableToolSchemas();
  const rows: [string, string, string][] = [];
  for (const t of h.catalog.registeredTools()) {
    if (tools.has(t.name)) continue;
    rows.push([t.name, t.description.split("\n")[0], ownerLabel(t.owner)]);
  }
  for (const [name, t] of tools) {
    rows.push([
      name,
      await h.catalog.describeTool(t.path) || t.schema.description.split("\n")[0],
      t.path,
    ]);
  }
  rows.sort((a, b) => (a[0] < b[0] ? -1 : 1));
  for (const [n, d, o] of rows) {
    cli.stdout(`${st.bold(safe(n.padEnd(16)))} ${safe(d)}\n${st.dim(safe(`  ${o}`))}\n`);
  }
  for (const p of problems) cli.stdout(st.yellow(safe(`rejected ${p.path}: ${p.reason}\n`)));
  for (const s of h.catalog.snapshot().skipped) {
    if (s.path.includes("/tools/")) cli.stdout(st.yellow(safe(`ignored ${s.path}: ${s.reason}\n`)));
  }
  return 0;
}
