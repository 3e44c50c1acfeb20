/**
 * The few POSIX path operations an entry needs before anything else is loaded (`node:path`
 * costs ~8 ms of Deno's Node layer per thread). Same results as `node:path`'s POSIX ones for
 * absolute paths and plain names (tests/core/early_path_test.ts holds them equal).
 *
 * @module
 */

/** `node:path`'s `normalize` of a POSIX path. */
export function normalize(path: string): string {
  if (path === "") return ".";
  const absolute = path.startsWith("/");
  const out: string[] = [];
  for (const part of path.split("/")) {
    if (part === "" || part === ".") continue;
    if (part === "..") {
      if (out.length && out[out.length - 1] !== "..") out.pop();
      else if (!absolute) out.push("..");
    } else out.push(part);
  }
  const body = out.join("/");
  const trailing = path.endsWith("/") && body ? "/" : "";
  if (absolute) return "/" + body + trailing;
  return (body || ".") + trailing;
}

/** `node:path`'s `join`. */
export function join(...parts: string[]): string {
  const kept = parts.filter((p) => p !== "");
  return kept.length ? normalize(kept.join("/")) : ".";
}

/** `node:path`'s `isAbsolute`. */
export function isAbsolute(path: string): boolean {
  return path.startsWith("/");
}

/** `node:path`'s `dirname`. */
export function dirname(path: string): string {
  if (path === "") return ".";
  let end = path.length;
  while (end > 1 && path[end - 1] === "/") end--;
  const i = path.lastIndexOf("/", end - 1);
  if (i < 0) return ".";
  return i === 0 ? "/" : path.slice(0, i);
}

/** `node:path`'s `resolve` against `base` (an absolute path) instead of the process's cwd. */
export function resolveFrom(base: string, ...parts: string[]): string {
  let out = base;
  for (const p of parts) if (p !== "") out = isAbsolute(p) ? p : out + "/" + p;
  const n = normalize(out);
  return n.length > 1 && n.endsWith("/") ? n.slice(0, -1) : n;
}

/** The path of a `file:` URL (percent-decoded), or undefined for any other URL. */
export function filePathOf(url: URL): string | undefined {
  return url.protocol === "file:" ? decodeURIComponent(url.pathname) : undefined;
}

/** `node:path`'s `sep` on POSIX. */
export const sep = "/";

/** `node:path`'s `basename` (without the suffix argument). */
export function basename(path: string): string {
  let end = path.length;
  while (end > 0 && path[end - 1] === "/") end--;
  if (end === 0) return "";
  return path.slice(path.lastIndexOf("/", end - 1) + 1, end);
}

/** `node:path`'s `resolve`: the parts from the right up to an absolute one, else from the cwd. */
export function resolve(...parts: string[]): string {
  const i = parts.findLastIndex((p) => isAbsolute(p));
  return i >= 0 ? resolveFrom(parts[i], ...parts.slice(i + 1)) : resolveFrom(Deno.cwd(), ...parts);
}

/** `node:url`'s `pathToFileURL` of an absolute POSIX path. */
export function fileUrlOf(path: string): URL {
  const url = new URL("file:///");
  // the pathname setter escapes spaces, `#` and `?`; `%`, `\` and control characters are ours
  url.pathname = path.replace(/%/g, "%25").replace(/\\/g, "%5C").replace(/\n/g, "%0A")
    .replace(/\r/g, "%0D").replace(/\t/g, "%09");
  return url;
}

/** `node:path`'s POSIX `relative`: the path from `from` to `to`, both resolved against the cwd. */
export function relative(from: string, to: string): string {
  const a = resolve(from).split("/").filter((p) => p !== "");
  const b = resolve(to).split("/").filter((p) => p !== "");
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return [...Array(a.length - i).fill(".."), ...b.slice(i)].join("/");
}
