/**
 * `deno task site`: builds the documentation site into `site/dist`.
 *
 *     deno run -A --config site/deno.json site/build.ts [--out DIR] [--gen DIR]
 *
 * 1. the CLI reference from `hs --help` (run as a subprocess) and the API
 *    reference from `deno doc --html`, side by side;
 * 2. the source folder synced from docs/, README.md and site/pages/;
 * 3. `vitepress build`.
 *
 * `SITE_BASE` sets the URL base (e.g. `/hs/` on GitHub Pages) and
 * `SITE_REPO_FILES` where links to repository files point.
 *
 * @module
 */
import { join, resolve } from "node:path";
import { DEFAULT_GEN, DEFAULT_OUT, SITE } from "./lib/paths.ts";
import { collectHelp, renderCliReference } from "./lib/cli_reference.ts";
import { buildApiDocs } from "./lib/api_docs.ts";
import { syncSite } from "./lib/sync.ts";

/** Where the site's inputs and outputs go. */
export interface BuildDirs {
  gen: string;
  out: string;
}

/**
 * Parses `--out DIR` and `--gen DIR`. The source folder must be inside site/ (Vite
 * resolves the pages' imports, e.g. `vue`, from site/node_modules).
 */
export function parseArgs(args: string[]): BuildDirs {
  const dirs = { gen: DEFAULT_GEN, out: DEFAULT_OUT };
  for (let i = 0; i < args.length; i++) {
    if (args[i] === "--out") dirs.out = resolve(args[++i]);
    else if (args[i] === "--gen") dirs.gen = resolve(args[++i]);
    else throw new Error(`unknown argument ${args[i]}`);
  }
  if (!dirs.gen.startsWith(`${SITE}/`)) throw new Error(`--gen must be a folder inside ${SITE}`);
  return dirs;
}

/** Where links from docs/ to repository files point, from the environment. */
export function repoFilesUrl(): string | undefined {
  const explicit = Deno.env.get("SITE_REPO_FILES");
  if (explicit) return explicit;
  const server = Deno.env.get("GITHUB_SERVER_URL");
  const repo = Deno.env.get("GITHUB_REPOSITORY");
  const sha = Deno.env.get("GITHUB_SHA");
  return server && repo && sha ? `${server}/${repo}/blob/${sha}` : undefined;
}

/** Generates the sources (CLI reference, API reference, synced pages) into `gen`. */
export async function prepare(gen: string): Promise<void> {
  const [pages] = await Promise.all([
    collectHelp(),
    buildApiDocs(join(gen, "public", "api"), repoFilesUrl()),
  ]);
  await syncSite({ gen, cliReference: renderCliReference(pages), repoFiles: repoFilesUrl() });
}

async function main(args: string[]): Promise<number> {
  const t0 = performance.now();
  const dirs = parseArgs(args);
  await prepare(dirs.gen);
  const t1 = performance.now();
  Deno.env.set("HS_SITE_GEN", dirs.gen);
  Deno.env.set("HS_SITE_OUT", dirs.out);
  if (dirs.gen !== DEFAULT_GEN) Deno.env.set("HS_SITE_CACHE", join(dirs.gen, ".cache"));
  const { build } = await import("vitepress");
  await build(SITE);
  const t2 = performance.now();
  console.log(
    `site built in ${((t2 - t0) / 1000).toFixed(1)} s ` +
      `(sources ${((t1 - t0) / 1000).toFixed(1)} s, vitepress ${((t2 - t1) / 1000).toFixed(1)} s)` +
      ` → ${dirs.out}`,
  );
  return 0;
}

if (import.meta.main) {
  try {
    Deno.exit(await main(Deno.args));
  } catch (err) {
    console.error(`site build failed: ${err instanceof Error ? err.message : err}`);
    Deno.exit(1);
  }
}
