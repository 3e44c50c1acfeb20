/**
 * Stored credentials lookup (PROTOCOLS "Auth"): `.auth.json` in any source,
 * most local first, then `$HARNESS_HOME/.auth.json`. Keys are never logged.
 *
 * @module
 */
import { dirname, join } from "node:path";
import { resolvePaths } from "./env.ts";
import { readTextOrUndefined } from "./fsutil.ts";

/** Paths of `.auth.json` files, most local first. */
export function authFiles(env: Record<string, string | undefined>, cwd: string): string[] {
  const paths = resolvePaths(env, cwd);
  const out: string[] = [];
  let cur = cwd;
  for (;;) {
    out.push(join(cur, ".harness", ".auth.json"));
    const parent = dirname(cur);
    if (parent === cur) break;
    cur = parent;
  }
  out.push(join(paths.home, ".auth.json"));
  return [...new Set(out)];
}

/** Returns a `lookupKey(provider)` reading stored credentials. */
export function lookupKeyFor(
  env: Record<string, string | undefined>,
  cwd: string,
): (provider: string) => Promise<string | undefined> {
  return (provider) => {
    for (const f of authFiles(env, cwd)) {
      const text = readTextOrUndefined(f);
      if (!text) continue;
      try {
        const data = JSON.parse(text) as Record<string, unknown>;
        const list = data[provider];
        if (!Array.isArray(list)) continue;
        for (const c of list) {
          const cred = c as {
            type?: string;
            key?: string;
            access_token?: string;
            expires_at?: number;
          };
          if (cred.type === "api_key" && cred.key) return Promise.resolve(cred.key);
          if (cred.type === "oauth" && cred.access_token) return Promise.resolve(cred.access_token);
        }
      } catch { /* a malformed file is reported by hs auth list */ }
    }
    return Promise.resolve(undefined);
  };
}
