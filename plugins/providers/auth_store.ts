/**
 * `.auth.json` credential store: `{"<provider>": [{"type":"api_key","key"} |
 * {"type":"oauth", access_token, refresh_token, expires_at}]}`. Writes are
 * atomic (temp file + rename) with mode 0600. Keys are never printed: listings
 * are masked and errors never echo file contents.
 *
 * @module
 */
import { z } from "zod";
import { HarnessError } from "../../core/errors.ts";

const apiKeyEntry = z.looseObject({ type: z.literal("api_key"), key: z.string() });
const oauthEntry = z.looseObject({
  type: z.literal("oauth"),
  access_token: z.string(),
  refresh_token: z.string().optional(),
  expires_at: z.union([z.number(), z.string()]).optional(),
});
const entrySchema = z.discriminatedUnion("type", [apiKeyEntry, oauthEntry]);
const fileSchema = z.record(z.string(), z.array(entrySchema));

/** One stored credential. */
export type AuthEntry = z.infer<typeof entrySchema>;

/** The whole `.auth.json`. */
export type AuthFile = Record<string, AuthEntry[]>;

/** A masked listing row (never contains the secret). */
export interface AuthListing {
  provider: string;
  index: number;
  type: "api_key" | "oauth";
  /** e.g. `sk-a…wxyz` (≥ 20 chars) or `****`. */
  masked: string;
  expiresAt?: number | string;
}

/** Masks a secret: first 4 and last 4 characters of long keys, else `****`. */
export function maskKey(key: string): string {
  return key.length >= 20 ? `${key.slice(0, 4)}…${key.slice(-4)}` : "****";
}

/** Reads an auth file; a missing file is empty; a malformed one → HarnessError naming the path. */
export async function readAuth(path: string): Promise<AuthFile> {
  let text: string;
  try {
    text = await Deno.readTextFile(path);
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) return {};
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
  const res = fileSchema.safeParse(raw);
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
  if (!provider.trim()) throw new HarnessError("provider name is empty");
  if (!key.trim()) throw new HarnessError("key is empty");
  const data = await readAuth(path);
  data[provider] = [{ type: "api_key", key: key.trim() }];
  await writeAuth(path, data);
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
