/**
 * The secrets children must never see: provider key variables (the built-in
 * ones and every `.conf` `auth_env`) and the values of every stored
 * credential. Child environments drop a variable named like one, or holding
 * one of the values (PROTOCOLS "Environment": credentials are never exported).
 *
 * @module
 */
import { dirname, join } from "../early/mod.ts";
import { dirEntries, parseKeyValues, readTextOrUndefined, statOrUndefined } from "../base/mod.ts";
import type { Snapshot } from "../discovery/mod.ts";

/** Names and values to keep out of child environments. */
export interface Secrets {
  /** Names of the variables holding credentials. */
  names: string[];
  /** The credential values themselves. */
  values: string[];
  /**
   * The key variables (of `names`) whose key is set — in the environment, or stored for
   * their provider in an auth file: children see the presence marker in them.
   */
  present?: string[];
}

/** Options of {@link SecretIndex}. */
export interface SecretIndexOptions {
  /** The harness's environment. */
  env: Record<string, string | undefined>;
  /** `$HARNESS_HOME` (its `.auth.json` is always read). */
  home: string;
  /** `auth_env` of a `.conf` text (from the providers plugin), if any. */
  authEnvOf?(confText: string): string | undefined;
}

/** Every credential value stored in an auth file (api keys and OAuth tokens); [] when unreadable. */
export function storedSecrets(path: string): string[] {
  const text = readTextOrUndefined(path);
  if (!text) return [];
  const out: string[] = [];
  try {
    const data = JSON.parse(text) as Record<string, unknown>;
    for (const list of Object.values(data ?? {})) {
      for (const c of Array.isArray(list) ? list : []) {
        const cred = c as { key?: unknown; access_token?: unknown; refresh_token?: unknown };
        for (const v of [cred?.key, cred?.access_token, cred?.refresh_token]) {
          if (typeof v === "string" && v) out.push(v);
        }
      }
    }
  } catch { /* a malformed file is reported by hs auth list */ }
  return out;
}

/** The providers an auth file holds at least one credential for; [] when unreadable. */
export function storedProviders(path: string): string[] {
  const text = readTextOrUndefined(path);
  if (!text) return [];
  try {
    const data = JSON.parse(text) as Record<string, unknown>;
    return Object.entries(data ?? {}).filter(([, l]) => Array.isArray(l) && l.length > 0)
      .map(([name]) => name);
  } catch {
    return [];
  }
}

/** The secrets of a discovery snapshot, recomputed when an auth file changes. */
export class SecretIndex {
  #o: SecretIndexOptions;
  #memo = new WeakMap<Snapshot, Secrets & { stamp: string }>();

  /** Creates an index; secrets are computed per snapshot on demand. */
  constructor(opts: SecretIndexOptions) {
    this.#o = opts;
  }

  /** The secrets for this snapshot (stored keys can change without a rescan: `hs auth set`). */
  of(snap: Snapshot): Secrets {
    const files = this.#authFiles(snap);
    const stamp = files.map((f) => {
      const info = statOrUndefined(f);
      return `${info?.mtime?.getTime() ?? 0}:${info?.size ?? 0}`;
    }).join(",");
    let hit = this.#memo.get(snap);
    if (!hit || hit.stamp !== stamp) {
      hit = { ...this.#compute(snap, files), stamp };
      this.#memo.set(snap, hit);
    }
    return hit;
  }

  #authFiles(snap: Snapshot): string[] {
    const home = join(this.#o.home, ".auth.json");
    const files = [...snap.authFiles];
    if (!files.includes(home) && dirEntries(dirname(home))?.files.has(".auth.json")) {
      files.push(home);
    }
    return files;
  }

  #compute(snap: Snapshot, files: string[]): Secrets {
    const names = ["ANTHROPIC_API_KEY", "OPENAI_API_KEY"];
    const keyOf = new Map([["anthropic", names[0]], ["openai", names[1]]]);
    for (const [name, p] of snap.providers) {
      if (p.kind !== "conf") continue;
      const text = readTextOrUndefined(p.path) ?? "";
      const ae = this.#o.authEnvOf?.(text) ?? parseKeyValues(text).auth_env;
      if (!ae) continue;
      names.push(ae);
      keyOf.set(name, ae);
    }
    const values = files.flatMap(storedSecrets);
    for (const n of names) {
      const v = this.#o.env[n];
      if (v) values.push(v);
    }
    const stored = new Set(files.flatMap(storedProviders));
    const present = new Set(names.filter((n) => this.#o.env[n]));
    for (const [name, ae] of keyOf) if (stored.has(name)) present.add(ae);
    return { names, values, present: [...present] };
  }
}
