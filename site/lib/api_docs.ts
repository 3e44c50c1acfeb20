/**
 * The API reference: `deno doc --html` over the public modules.
 *
 * @module
 */
import { dirname, join } from "node:path";
import { REPO } from "./paths.ts";

/** The modules the API reference documents. */
export const API_MODULES = ["mod.ts", "scheme/mod.ts"];

/**
 * A page of `deno doc --html` with its "source" links (`file://` paths of the machine that
 * built it, `/` written as `&#x2F;`) pointing into the repository at `repoFiles` (e.g.
 * `https://github.com/o/r/blob/<sha>`), or, without it, pointing nowhere.
 */
export function repoSourceLinks(html: string, root: string, repoFiles?: string): string {
  return html.replace(/\s*href="file:((?:&#x2F;|\/)[^"]*)"/g, (_all, escaped: string) => {
    const path = escaped.replaceAll("&#x2F;", "/").replace(/^\/\//, "");
    const rel = path.startsWith(`${root}/`) ? path.slice(root.length + 1) : undefined;
    return rel && repoFiles ? ` href="${repoFiles.replace(/\/$/, "")}/${rel}"` : "";
  });
}

/** Rewrites every page under `dir` with {@link repoSourceLinks}. */
async function rewriteSourceLinks(dir: string, repoFiles?: string): Promise<void> {
  for await (const e of Deno.readDir(dir)) {
    const path = join(dir, e.name);
    if (e.isDirectory) await rewriteSourceLinks(path, repoFiles);
    else if (e.name.endsWith(".html")) {
      const html = await Deno.readTextFile(path);
      const fixed = repoSourceLinks(html, REPO, repoFiles);
      if (fixed !== html) await Deno.writeTextFile(path, fixed);
    }
  }
}

/**
 * Writes the API reference into `out` (replaced), its source links into `repoFiles` (or none);
 * throws with deno doc's output on failure.
 */
export async function buildApiDocs(out: string, repoFiles?: string): Promise<void> {
  await Deno.remove(out, { recursive: true }).catch(() => {});
  await Deno.mkdir(dirname(out), { recursive: true });
  const r = await new Deno.Command(Deno.execPath(), {
    args: [
      "doc",
      "--html",
      "--name=Harness",
      `--output=${out}`,
      "--config",
      join(REPO, "deno.json"),
      ...API_MODULES,
    ],
    cwd: REPO,
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (!r.success) {
    const dec = new TextDecoder();
    throw new Error(`deno doc failed:\n${dec.decode(r.stdout)}${dec.decode(r.stderr)}`);
  }
  await rewriteSourceLinks(out, repoFiles);
}
