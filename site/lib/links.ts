/**
 * Finds broken internal links in a built static site: every `href`/`src` of
 * every HTML file must name a file of the site, and every `#fragment` an `id`
 * (or `<a name>`) in the page it points to, and no link may be a `file:` URL (a path of
 * the machine that built the site, as `deno doc --html` writes its source links).
 *
 * @module
 */
import { join, posix } from "node:path";

/** A broken link. */
export interface BrokenLink {
  /** The HTML file it was found in, relative to the site root. */
  file: string;
  /** The link as written. */
  link: string;
  reason: string;
}

/** Result of {@link checkLinks}. */
export interface LinkReport {
  pages: number;
  links: number;
  broken: BrokenLink[];
}

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };

/** Decodes the HTML character references of an attribute value. */
export function decodeEntities(s: string): string {
  return s.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (all, e: string) => {
    if (e[0] === "#") {
      const n = e[1] === "x" || e[1] === "X" ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10);
      return String.fromCodePoint(n);
    }
    return ENTITIES[e.toLowerCase()] ?? all;
  });
}

/** The `href`/`src` values of a page's tags (`<a>`, `<link>`, `<img>`, `<script>`, …). */
export function extractLinks(html: string): string[] {
  const out: string[] = [];
  const body = html.replace(/<!--[\s\S]*?-->/g, "");
  for (const tag of body.matchAll(/<(a|area|link|img|script|source|iframe)\b[^>]*>/gi)) {
    for (const m of tag[0].matchAll(/\s(href|src)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))/gi)) {
      out.push(decodeEntities(m[2] ?? m[3] ?? m[4] ?? ""));
    }
  }
  return out;
}

/** The anchors a page defines: its `id` attributes and `<a name>` values. */
export function extractAnchors(html: string): Set<string> {
  const ids = new Set<string>();
  const body = html.replace(/<!--[\s\S]*?-->/g, "");
  for (const m of body.matchAll(/\s(?:id|name)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>"']+))/gi)) {
    ids.add(decodeEntities(m[1] ?? m[2] ?? m[3] ?? ""));
  }
  return ids;
}

/** True for links that leave the site (other schemes, other hosts) or are empty. */
function external(link: string): boolean {
  return link === "" || /^[a-z][a-z0-9+.-]*:/i.test(link) || link.startsWith("//");
}

/**
 * Checks every internal link of the site in `root`. `base` is the URL path the site
 * is served under (`/` or e.g. `/hs/`): absolute links must start with it.
 */
export async function checkLinks(root: string, base = "/"): Promise<LinkReport> {
  const files = new Set<string>();
  for await (const rel of walk(root)) files.add(rel);
  const html = [...files].filter((f) => f.endsWith(".html")).sort();
  const anchors = new Map<string, Set<string>>();
  const anchorsOf = async (rel: string) => {
    let a = anchors.get(rel);
    if (!a) {
      a = extractAnchors(await Deno.readTextFile(join(root, rel)));
      anchors.set(rel, a);
    }
    return a;
  };
  const report: LinkReport = { pages: html.length, links: 0, broken: [] };
  const b = base.endsWith("/") ? base : `${base}/`;
  for (const file of html) {
    const page = await Deno.readTextFile(join(root, file));
    for (const link of new Set(extractLinks(page))) {
      const broken = (reason: string) => report.broken.push({ file, link, reason });
      if (/^file:/i.test(link)) {
        report.links++;
        broken("a file: link (a path on the machine that built the site)");
        continue;
      }
      if (external(link)) continue;
      report.links++;
      const hashAt = link.indexOf("#");
      const rawPath = (hashAt < 0 ? link : link.slice(0, hashAt)).replace(/\?.*$/, "");
      const fragment = hashAt < 0 ? undefined : link.slice(hashAt + 1);
      let target: string;
      if (rawPath === "") target = file;
      else {
        let urlPath: string;
        try {
          urlPath = decodeURI(rawPath);
        } catch {
          broken("malformed URL");
          continue;
        }
        if (urlPath.startsWith("/")) {
          if (!`${urlPath}/`.startsWith(b)) {
            broken(`outside the site's base ${b}`);
            continue;
          }
          urlPath = urlPath.slice(b.length);
        } else urlPath = posix.join(posix.dirname(file), urlPath);
        const resolved = resolveFile(posix.normalize(urlPath).replace(/^\.\/?/, ""), files);
        if (!resolved) {
          broken("no such file");
          continue;
        }
        target = resolved;
      }
      if (fragment === undefined || fragment === "" || !target.endsWith(".html")) continue;
      let id: string;
      try {
        id = decodeURIComponent(fragment);
      } catch {
        id = fragment;
      }
      if (!(await anchorsOf(target)).has(id)) broken(`no anchor #${id} in ${target}`);
    }
  }
  return report;
}

/** The file a URL path names: itself, `index.html` of a folder, or `<path>.html`. */
function resolveFile(path: string, files: Set<string>): string | undefined {
  if (path === "" || path === "." || path.endsWith("/")) {
    const index = `${path === "." ? "" : path}index.html`;
    return files.has(index) ? index : undefined;
  }
  if (path.startsWith("..")) return undefined;
  for (const c of [path, `${path}.html`, `${path}/index.html`]) if (files.has(c)) return c;
  return undefined;
}

async function* walk(dir: string, prefix = ""): AsyncGenerator<string> {
  for await (const e of Deno.readDir(dir)) {
    const rel = prefix + e.name;
    if (e.isDirectory) yield* walk(join(dir, e.name), `${rel}/`);
    else if (e.isFile) yield rel;
  }
}
