/**
 * The link checker: fails on a broken internal link or `#anchor` of the built site.
 *
 *     deno run -A --config site/deno.json site/check_links.ts [DIR] [--base /path/]
 *
 * DIR defaults to `site/dist`, the base to `$SITE_BASE` or `/`.
 *
 * @module
 */
import { resolve } from "node:path";
import { DEFAULT_OUT } from "./lib/paths.ts";
import { checkLinks } from "./lib/links.ts";

async function main(args: string[]): Promise<number> {
  let dir = DEFAULT_OUT;
  let base = Deno.env.get("SITE_BASE") ?? "/";
  for (let i = 0; i < args.length; i++) {
    if (args[i] === "--base") base = args[++i];
    else dir = resolve(args[i]);
  }
  const report = await checkLinks(dir, base);
  for (const b of report.broken) console.log(`${b.file}: ${b.link} — ${b.reason}`);
  console.log(
    `links: ${report.pages} pages, ${report.links} internal links, ${report.broken.length} broken`,
  );
  return report.broken.length === 0 && report.pages > 0 ? 0 : 1;
}

if (import.meta.main) Deno.exit(await main(Deno.args));
