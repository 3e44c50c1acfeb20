/**
 * Fails when the built CLI reference page differs from what `hs --help` and
 * `hs <command> --help` print now.
 *
 *     deno run -A --config site/deno.json site/check_cli.ts [DIR]
 *
 * DIR defaults to `site/dist`.
 *
 * @module
 */
import { join, resolve } from "node:path";
import { DEFAULT_OUT } from "./lib/paths.ts";
import { collectHelp } from "./lib/cli_reference.ts";
import { compareCliPage } from "./lib/cli_page.ts";

async function main(args: string[]): Promise<number> {
  const dir = args[0] ? resolve(args[0]) : DEFAULT_OUT;
  const html = await Deno.readTextFile(join(dir, "reference", "cli.html"));
  const live = await collectHelp();
  const problems = compareCliPage(html, live);
  for (const p of problems) console.log(p);
  console.log(`cli reference: ${live.length} commands checked, ${problems.length} differ`);
  return problems.length === 0 ? 0 : 1;
}

if (import.meta.main) Deno.exit(await main(Deno.args));
