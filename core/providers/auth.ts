/**
 * Stored credentials lookup (PROTOCOLS "Auth"): `.auth.json` in any source,
 * most local first, then `$HARNESS_HOME/.auth.json`, then the auth providers
 * registered by runtime plugins (`ctx.auth.register`). Keys are never logged.
 *
 * The store itself (`readAuth`, `writeAuth`, `setKey`, `removeKey`,
 * `listAuth`): writes are atomic (temp file + rename) with mode 0600; listings
 * are masked and errors never echo file contents.
 *
 * @module
 */
import { dirname, firstUse, join } from "../early/mod.ts";
import { z } from "zod";
import {
  type AuthProvider,
  displayPath,
  HarnessError,
  harnessHome,
  readOwnText,
  readOwnTextOrWhy,
} from "../base/mod.ts";

/** Paths of `.auth.json` files, most local first. */
export function authFiles(env: Record<string, string | undefined>, cwd: string): string[] {
  const home = harnessHome(env);
  const out: string[] = [];
  let cur = cwd;
  for (;;) {
    out.push(join(cur, ".harness", ".auth.json"));
    const parent = dirname(cur);
    if (parent === cur) break;
    cur = parent;
  }
  out.push(join(home, ".auth.json"));
  return [...new Set(out)];
}

/** A credential found for a provider, and where it came from (for `hs providers`). */
export interface FoundCredential {
  /** The secret itself: never print or log it. */
  key: string;
  /** e.g. `stored key in ~/.harness/.auth.json` or `auth plugin "vault"`. */
  source: string;
}

/** The first usable secret of a provider in a parsed auth file, if any. */
function secretIn(data: unknown, provider: string): string | undefined {
  const list = (data as Record<string, unknown> | null)?.[provider];
  if (!Array.isArray(list)) return undefined;
  for (const c of list) {
    const cred = c as { type?: string; key?: unknown; access_token?: unknown };
    if (cred?.type === "api_key" && typeof cred.key === "string" && cred.key) return cred.key;
    if (cred?.type === "oauth" && typeof cred.access_token === "string" && cred.access_token) {
      return cred.access_token;
    }
  }
  return undefined;
}

/**
 * Returns `lookup(provider)` → the stored credential and its source: auth
 * files first (most local first), then the registered auth providers in
 * registration order. A malformed file is skipped (reported by `hs auth list`);
 * a failing auth provider is skipped.
 */
export function credentialLookup(
  env: Record<string, string | undefined>,
  cwd: string,
  authProviders: () => AuthProvider[] = () => [],
): (provider: string) => Promise<FoundCredential | undefined> {
  return async (provider) => {
    for (const f of authFiles(env, cwd)) {
      const text = readOwnText(f); // a link or a second name is refused (reported), skipped
      if (!text) continue;
      let data: unknown;
      try {
        data = JSON.parse(text);
      } catch {
        continue;
      }
      const key = secretIn(data, provider);
      if (key) return { key, source: `stored key in ${displayPath(f, env)}` };
    }
    for (const a of authProviders()) {
      try {
        const key = await a.resolve(provider);
        if (typeof key === "string" && key) return { key, source: `auth plugin "${a.id}"` };
      } catch { /* an auth plugin that fails is skipped */ }
    }
    return undefined;
  };
}

/** Returns a `lookupKey(provider)` reading stored credentials (see {@link credentialLookup}). */
export function lookupKeyFor(
  env: Record<string, string | undefined>,
  cwd: string,
  authProviders?: () => AuthProvider[],
): (provider: string) => Promise<string | undefined> {
  const lookup = credentialLookup(env, cwd, authProviders);
  return async (provider) => (await lookup(provider))?.key;
}

/** Returns a `keySource(provider)`: where the stored credential comes from (never the key). */
export function keySourceFor(
  env: Record<string, string | undefined>,
  cwd: string,
  authProviders?: () => AuthProvider[],
): (provider: string) => Promise<string | undefined> {
  const lookup = credentialLookup(env, cwd, authProviders);
  return async (provider) => (await lookup(provider))?.source;
}

// ---- the .auth.json store ----

/** One stored credential: an API key or an OAuth record (unknown fields are kept). */
export type AuthEntry =
  | { type: "api_key"; key: string; [k: string]: unknown }
  | {
    type: "oauth";
    access_token: string;
    refresh_token?: string;
    expires_at?: number | string;
    [k: string]: unknown;
  };

/** An entry's and the file's shapes, built when a `.auth.json` is first read. */
const schemas = firstUse(() => {
  const apiKeyEntry = z.looseObject({ type: z.literal("api_key"), key: z.string() });
  const oauthEntry = z.looseObject({
    type: z.literal("oauth"),
    access_token: z.string(),
    refresh_token: z.string().optional(),
    expires_at: z.union([z.number(), z.string()]).optional(),
  });
  const entry: z.ZodType<AuthEntry> = z.discriminatedUnion("type", [apiKeyEntry, oauthEntry]);
  return { entry, file: z.record(z.string(), z.array(entry)) };
});

/** The whole `.auth.json`. */
export type AuthFile = Record<string, AuthEntry[]>;

/** A masked listing row (never contains the secret). */
export interface AuthListing {
  /** The provider the credential is for. */
  provider: string;
  /** Its position in the provider's list (for `hs auth remove`). */
  index: number;
  /** An API key or OAuth tokens. */
  type: "api_key" | "oauth";
  /** e.g. `sk-a…wxyz` (≥ 20 chars) or `****`. */
  masked: string;
  /** When an OAuth token expires (as stored). */
  expiresAt?: number | string;
}

/** Masks a secret: first 4 and last 4 characters of long keys, else `****`. */
export function maskKey(key: string): string {
  return key.length >= 20 ? `${key.slice(0, 4)}…${key.slice(-4)}` : "****";
}

/** Reads an auth file; a missing file is empty; a malformed one → HarnessError naming the path. */
export function readAuth(path: string): Promise<AuthFile> {
  return Promise.resolve().then(() => readAuthSync(path));
}

function readAuthSync(path: string): AuthFile {
  let text: string;
  try {
    const read = readOwnTextOrWhy(path);
    if ("missing" in read) return {};
    if ("refused" in read) {
      throw new HarnessError(
        `refused ${path}: ${read.refused}`,
        "hs never reads its own state through a link: replace it with a regular file",
      );
    }
    text = read.text;
  } catch (err) {
    if (err instanceof HarnessError) throw err;
    throw new HarnessError(`cannot read ${path}: ${(err as Error).name}`);
  }
  if (text.trim() === "") return {};
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw new HarnessError(
      `${path}: malformed auth file (not valid JSON)`,
      "fix or remove the file, then run: hs auth set <provider>",
    );
  }
  const res = schemas().file.safeParse(raw);
  if (!res.success) {
    const where = res.error.issues[0]?.path.join(".") || "(root)";
    throw new HarnessError(
      `${path}: malformed auth file (unexpected shape at ${where})`,
      "fix or remove the file, then run: hs auth set <provider>",
    );
  }
  return res.data as AuthFile;
}

/** Writes an auth file atomically with mode 0600 (creates the directory, 0700). */
export async function writeAuth(path: string, data: AuthFile): Promise<void> {
  const slash = path.lastIndexOf("/");
  const dir = slash > 0 ? path.slice(0, slash) : ".";
  await Deno.mkdir(dir, { recursive: true, mode: 0o700 });
  const tmp = `${path}.tmp-${Deno.pid}-${crypto.randomUUID().slice(0, 8)}`;
  try {
    await Deno.writeTextFile(tmp, JSON.stringify(data, null, 2) + "\n", {
      mode: 0o600,
      createNew: true,
    });
    await Deno.chmod(tmp, 0o600);
    await Deno.rename(tmp, path);
  } catch (err) {
    await Deno.remove(tmp).catch(() => {});
    throw new HarnessError(`cannot write ${path}: ${(err as Error).name}`);
  }
}

/** Stores an API key for a provider (replacing its previous credentials). */
export async function setKey(path: string, provider: string, key: string): Promise<void> {
  if (!key.trim()) throw new HarnessError("key is empty");
  await setEntry(path, provider, { type: "api_key", key: key.trim() });
}

/** Stores one credential (API key or OAuth record) for a provider, replacing its previous ones. */
export async function setEntry(path: string, provider: string, entry: AuthEntry): Promise<void> {
  if (!provider.trim()) throw new HarnessError("provider name is empty");
  const data = await readAuth(path);
  data[provider] = [entry];
  await writeAuth(path, data);
}

/** Validates a credential record (e.g. printed by an `auth-set` hook); undefined when invalid. */
export function parseAuthEntry(raw: unknown): AuthEntry | undefined {
  const r = schemas().entry.safeParse(raw);
  if (!r.success) return undefined;
  const e = r.data;
  if (e.type === "api_key" && !e.key.trim()) return undefined;
  if (e.type === "oauth" && !e.access_token) return undefined;
  return e;
}

/** Removes credential `index` of a provider; HarnessError when there is none. */
export async function removeKey(path: string, provider: string, index: number): Promise<void> {
  const data = await readAuth(path);
  const list = data[provider];
  if (!list || !Number.isInteger(index) || index < 0 || index >= list.length) {
    throw new HarnessError(
      `no credential ${provider}[${index}] in ${path}`,
      "see: hs auth list",
    );
  }
  list.splice(index, 1);
  if (list.length === 0) delete data[provider];
  await writeAuth(path, data);
}

/** Masked listing of every stored credential. */
export async function listAuth(path: string): Promise<AuthListing[]> {
  const data = await readAuth(path);
  const out: AuthListing[] = [];
  for (const provider of Object.keys(data).sort()) {
    data[provider].forEach((e, index) => {
      if (e.type === "api_key") {
        out.push({ provider, index, type: "api_key", masked: maskKey(e.key) });
      } else {
        out.push({
          provider,
          index,
          type: "oauth",
          masked: maskKey(e.access_token),
          ...(e.expires_at !== undefined ? { expiresAt: e.expires_at } : {}),
        });
      }
    });
  }
  return out;
}

/** The first usable secret of a provider in an auth file (api key or OAuth access token). */
export function storedKey(data: AuthFile, provider: string): string | undefined {
  for (const e of data[provider] ?? []) {
    if (e.type === "api_key" && e.key) return e.key;
    if (e.type === "oauth" && e.access_token) return e.access_token;
  }
  return undefined;
}
