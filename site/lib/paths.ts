/**
 * Where things are: the repository, the site sources, the default generated
 * source folder and output folder.
 *
 * @module
 */
import { fileURLToPath } from "node:url";
import { join } from "node:path";

/** The repository root (absolute, no trailing slash). */
export const REPO: string = fileURLToPath(new URL("../..", import.meta.url)).replace(/\/$/, "");

/** The site folder: VitePress's project root (`site/.vitepress/config.mts`). */
export const SITE: string = join(REPO, "site");

/** Default folder the guide is synced into (VitePress `srcDir`, gitignored). */
export const DEFAULT_GEN: string = join(SITE, ".gen");

/** Default output folder of `deno task site`. */
export const DEFAULT_OUT: string = join(SITE, "dist");

/** The folder of committed screenshots used by the site. */
export const SCREENSHOTS: string = join(SITE, "screenshots");
