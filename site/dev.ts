/**
 * `deno task site:dev`: serves the site locally with live reload.
 *
 *     deno run -A --config site/deno.json site/dev.ts [--port N]
 *
 * Generates the sources once (CLI reference, API reference, synced docs), then
 * re-syncs whenever docs/, README.md, site/pages/ or site/screenshots/ change, so
 * an edit of docs/*.md shows in the browser at once.
 *
 * @module
 */
import { join } from "node:path";
import { DEFAULT_GEN, REPO, SITE } from "./lib/paths.ts";
import { collectHelp, renderCliReference } from "./lib/cli_reference.ts";
import { buildApiDocs } from "./lib/api_docs.ts";
import { syncSite } from "./lib/sync.ts";
import { repoFilesUrl } from "./build.ts";

async function main(args: string[]): Promise<number> {
  const portAt = args.indexOf("--port");
  const port = portAt >= 0 ? Number(args[portAt + 1]) : 5173;
  const gen = DEFAULT_GEN;
  const [pages] = await Promise.all([
    collectHelp(),
    buildApiDocs(join(gen, "public", "api"), repoFilesUrl()),
  ]);
  const cliReference = renderCliReference(pages);
  const sync = () => syncSite({ gen, cliReference, repoFiles: repoFilesUrl() });
  await sync();

  Deno.env.set("HS_SITE_GEN", gen);
  const { createServer } = await import("vitepress");
  const server = await createServer(SITE, { port, host: "127.0.0.1" });
  await server.listen();
  server.printUrls();

  const watched = [
    join(REPO, "docs"),
    join(REPO, "README.md"),
    join(SITE, "pages"),
    join(SITE, "screenshots"),
  ];
  let timer: ReturnType<typeof setTimeout> | undefined;
  for await (const _ of Deno.watchFs(watched, { recursive: true })) {
    clearTimeout(timer);
    timer = setTimeout(async () => {
      try {
        const n = await sync();
        if (n > 0) console.log(`synced ${n} file(s) from docs/`);
      } catch (err) {
        console.error(`sync failed: ${err instanceof Error ? err.message : err}`);
      }
    }, 100);
  }
  return 0;
}

if (import.meta.main) Deno.exit(await main(Deno.args));
