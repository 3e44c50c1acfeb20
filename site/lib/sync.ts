/**
 * Lays out the VitePress source folder (`srcDir`, default `site/.gen/`) from
 * the single sources: `docs/*.md` become guide pages, the README's sections
 * fill `<!--@readme: Heading-->` placeholders of the site's own pages
 * (`site/pages/`), the CLI reference is generated from `hs --help`, and the
 * screenshots are copied to `public/`. Only changed files are written, so the
 * dev server reloads just what changed.
 *
 * @module
 */
import { dirname, join, normalize, relative } from "node:path";
import { REPO, SCREENSHOTS, SITE } from "./paths.ts";
import { escapeMustaches, joinTagLines, rewriteLinks, section, unclosedFence } from "./markdown.ts";
import { buildNav } from "./guide.ts";

/** Options of {@link syncSite}. */
export interface SyncOptions {
  /** The folder to fill (VitePress `srcDir`). */
  gen: string;
  /** The CLI reference page (markdown), see `cli_reference.ts`. */
  cliReference: string;
  /** Base URL of the repository's files for links out of docs/, e.g. `https://github.com/o/r/blob/main`. */
  repoFiles?: string;
}

/** Subfolders of the source folder that other steps own (not deleted by a sync). */
const KEEP = ["public/api/"];

/** Writes the source folder; returns the number of files written. */
export async function syncSite(opts: SyncOptions): Promise<number> {
  const files = await siteFiles(opts);
  let written = 0;
  for (const [rel, content] of files) {
    const path = join(opts.gen, rel);
    const old = await Deno.readFile(path).catch(() => undefined);
    if (old && equalBytes(old, content)) continue;
    await Deno.mkdir(dirname(path), { recursive: true });
    await Deno.writeFile(path, content);
    written++;
  }
  for await (const rel of walk(opts.gen)) {
    if (!files.has(rel) && !KEEP.some((k) => rel.startsWith(k))) {
      await Deno.remove(join(opts.gen, rel));
    }
  }
  return written;
}

/** Every file of the source folder, by path relative to it. */
export async function siteFiles(opts: SyncOptions): Promise<Map<string, Uint8Array>> {
  const enc = new TextEncoder();
  const files = new Map<string, Uint8Array>();
  const readme = await Deno.readTextFile(join(REPO, "README.md"));

  const docs = new Map<string, string>();
  for await (const e of Deno.readDir(join(REPO, "docs"))) {
    if (!e.isFile || !e.name.endsWith(".md")) continue;
    const md = await Deno.readTextFile(join(REPO, "docs", e.name));
    const open = unclosedFence(md);
    if (open !== undefined) {
      throw new Error(
        `docs/${e.name}:${open}: this code fence is never closed, so the rest of the page ` +
          "renders as code (a block that shows ``` needs a longer fence, ````)",
      );
    }
    docs.set(e.name, /^# (.+)$/m.exec(md)?.[1].replace(/`/g, "") ?? e.name);
    const page = escapeMustaches(joinTagLines(
      rewriteLinks(md, (t) => mapLink(t, join(REPO, "docs"), opts.repoFiles)),
    ));
    files.set(`guide/${e.name}`, enc.encode(page));
  }

  const shots = (await Array.fromAsync(walk(SCREENSHOTS))).filter((n) =>
    /^[^/]+\.(png|svg|jpe?g|webp)$/.test(n)
  ).sort();
  for (const name of shots) {
    files.set(`public/screenshots/${name}`, await Deno.readFile(join(SCREENSHOTS, name)));
  }

  for await (const rel of walk(join(SITE, "pages"))) {
    const src = join(SITE, "pages", rel);
    if (!rel.endsWith(".md")) {
      files.set(rel, await Deno.readFile(src));
      continue;
    }
    let page = await Deno.readTextFile(src);
    page = page.replace(/<!--@readme:\s*(.+?)\s*-->/g, (_, heading: string) => {
      const part = section(readme, heading);
      return rewriteLinks(part, (t) => mapLink(t, REPO, opts.repoFiles, dirname(join("x", rel))));
    });
    page = page.replace(/<!--@screenshots:\s*(\S+?)\s*-->/g, (_, prefix: string) => {
      const mine = shots.filter((n) => n.startsWith(`${prefix}-`));
      if (mine.length === 0) return `_No \`${prefix}-*\` screenshots yet._`;
      return mine.map((n) => `![${n}](/screenshots/${n})`).join("\n\n");
    });
    files.set(rel, enc.encode(page));
  }

  files.set("reference/cli.md", enc.encode(opts.cliReference));

  files.set("nav.json", enc.encode(JSON.stringify(buildNav(docs), null, 2) + "\n"));
  return files;
}

/**
 * Maps a link found in a file of `fromDir` (a repository folder). Links into docs/
 * become guide pages (`docs/x.md` → the page's relative `x.md`; `pageDir` is the
 * page's folder inside the source folder, `x/guide` for guide pages); links to other
 * repository files go to `repoFiles`, or are dropped (text kept) without it.
 * External links and in-page anchors are kept.
 */
export function mapLink(
  target: string,
  fromDir: string,
  repoFiles?: string,
  pageDir = "x/guide",
): string | null {
  if (/^[a-z][a-z0-9+.-]*:|^\/\/|^#/i.test(target)) return target;
  const [path, hash = ""] = target.split(/(?=#)/);
  const abs = normalize(join(fromDir, decodeURI(path)));
  const rel = relative(REPO, abs);
  if (rel.startsWith("..")) return null;
  if (rel.startsWith("docs/") && rel.endsWith(".md")) {
    const page = join("x/guide", rel.slice("docs/".length));
    const r = relative(pageDir, page);
    return (r.startsWith(".") ? r : `./${r}`) + hash;
  }
  if (rel === "README.md") return relative(pageDir, "x/guide/getting-started.md") + hash;
  // the committed screenshots are copied to the site's public/screenshots/
  const shot = /^site\/screenshots\/([^/]+\.(?:png|svg|jpe?g|webp))$/.exec(rel);
  if (shot) return `/screenshots/${shot[1]}`;
  return repoFiles ? `${repoFiles.replace(/\/$/, "")}/${rel}${hash}` : null;
}

async function* walk(dir: string, prefix = ""): AsyncGenerator<string> {
  let entries: Deno.DirEntry[];
  try {
    entries = await Array.fromAsync(Deno.readDir(dir));
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) return;
    throw err;
  }
  for (const e of entries) {
    const rel = prefix + e.name;
    if (e.isDirectory) yield* walk(join(dir, e.name), `${rel}/`);
    else yield rel;
  }
}

function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
