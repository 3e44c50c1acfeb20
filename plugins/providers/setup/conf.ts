/**
 * `.conf` provider variants: `key=value` lines (first occurrence wins, `#`
 * comments) pointing a built-in protocol adapter at an endpoint.
 *
 * @module
 */
import { z } from "zod";
import {
  type Endpoint,
  formatUnknownKey,
  HarnessError,
  type ModelLimits,
  type ModelProvider,
  type Pricing,
  ProviderError,
  type Readiness,
  type SendOptions,
  type SendPayload,
  unknownKeys as findUnknownKeys,
} from "../../../core/mod.ts";
import { type ProtocolName, PROTOCOLS } from "./protocols.ts";
import { lazyAdapter } from "./lazy_adapter.ts";
import {
  type AdapterOptions,
  DEFAULT_DEADLINE_MS,
  DEFAULT_FIRST_TOKEN_TIMEOUT_MS,
  DEFAULT_MAX_RESPONSE_BYTES,
  type RetryOptions,
} from "./http_options.ts";

/** What providers need from the host: the environment and stored keys. */
export interface ProviderDeps {
  env: Record<string, string | undefined>;
  /** The stored key (`hs auth set`) of a provider, if any. */
  lookupKey(provider: string): Promise<string | undefined>;
  /** Where the stored key of a provider comes from (shown by `hs providers`; never the key). */
  keySource?(provider: string): Promise<string | undefined>;
  /** Retry policy / fetch for every adapter these providers use (tests, tuning). */
  adapterOptions?: AdapterOptions;
}

/**
 * Adapter options of a provider: `HARNESS_RETRY_BASE_MS` (backoff base in ms)
 * from the environment, then `extra` (e.g. a `.conf`'s `max_attempts`), then
 * `deps.adapterOptions` (which win).
 */
export function adapterOptionsFor(
  deps: ProviderDeps,
  extra: Partial<RetryOptions> = {},
): AdapterOptions {
  const retry: Partial<RetryOptions> = { ...extra };
  const base = deps.env.HARNESS_RETRY_BASE_MS;
  if (base && /^\d+$/.test(base.trim())) retry.baseDelayMs = Number(base.trim());
  return { ...deps.adapterOptions, retry: { ...retry, ...deps.adapterOptions?.retry } };
}

/** The readiness reason of a stored key: its source, or a generic text. */
export async function storedKeyReason(deps: ProviderDeps, name: string): Promise<string> {
  return (await deps.keySource?.(name).catch(() => undefined)) ?? "stored key (hs auth)";
}

/** A parsed `.conf` variant. */
export interface ConfVariant {
  /** The file it came from (for messages). */
  path: string;
  protocol: ProtocolName;
  url: string;
  /** Variable holding the API key; unset = no key needed. */
  authEnv?: string;
  /** Default model ("" when the file has none). */
  model: string;
  /** `max_tokens=`; the protocol default (8192 / 4096) when absent. */
  maxTokens: number;
  description: string;
  /** `never` disables SSE; `auto` (default) streams. */
  stream: "never" | "auto";
  /** `header.<Name>=value` lines. */
  headers: Record<string, string>;
  /** `timeout=` seconds, in ms (default 300 s): the longest wait for data. */
  timeoutMs: number;
  /** `max_attempts=` total attempts of a retried request (default 4). */
  maxAttempts: number;
  /** `first_token_timeout=` seconds, in ms: the longest wait for the first content (300 s). */
  firstTokenTimeoutMs: number;
  /** `deadline=` seconds, in ms: the longest time for a whole answer (3600 s). */
  deadlineMs: number;
  /** `max_response_bytes=`: the most bytes of one response (32 MiB). */
  maxResponseBytes: number;
  /** `max_tool_calls=`: the most tool calls one response may ask for (absent: the default, 128). */
  maxToolCalls?: number;
  /** `context=`: the model's context window in tokens (absent: known-model defaults). */
  context?: number;
  /** `cache=never` turns prompt-cache breakpoints off (`auto`, the default, marks them). */
  cache: "never" | "auto";
  /** `price_input=`, `price_output=`, `price_cache_read=`, `price_cache_write=` ($ per 1M tokens). */
  pricing?: Pricing;
  /** Keys the parser does not know (ignored; shown by diagnostics). */
  unknownKeys: string[];
  /** The line of `url=` (for messages). */
  urlLine?: number;
}

/** Default `max_tokens` per protocol. */
export const DEFAULT_MAX_TOKENS: Readonly<Record<ProtocolName, number>> = {
  "anthropic": 8192,
  "openai": 4096,
  "openai-responses": 4096,
};

/** Default request timeout (ms). */
export const DEFAULT_TIMEOUT_MS = 300_000;

const KNOWN = new Set([
  "protocol",
  "url",
  "auth",
  "auth_env",
  "model",
  "max_tokens",
  "description",
  "stream",
  "timeout",
  "max_attempts",
  "first_token_timeout",
  "deadline",
  "max_response_bytes",
  "max_tool_calls",
  "context",
  "cache",
  "price_input",
  "price_output",
  "price_cache_read",
  "price_cache_write",
]);

/** The keys a provider `.conf` knows (besides `header.<Name>`). */
export const CONF_KEYS: readonly string[] = [...KNOWN];

/** The unknown keys of a `.conf` text, one line each (`path:line: unknown key …`). */
export function confWarnings(text: string, path: string): string[] {
  return findUnknownKeys(text, path, CONF_KEYS, ["header."]).map(formatUnknownKey);
}

const KEYS_HINT =
  "keys: protocol, url, auth (none), auth_env, model, max_tokens, description, stream, " +
  "header.<Name>, timeout, first_token_timeout, deadline, max_attempts, max_response_bytes, " +
  "max_tool_calls, context, cache, price_input, price_output, price_cache_read, price_cache_write";

const secondsKey = (key: string) =>
  z.string().regex(/^\d+(\.\d+)?$/, `${key}= must be a number of seconds`).transform(Number)
    .refine((n) => n > 0, `${key}= must be greater than 0`);

const UNITS: Record<string, number> = { "": 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3 };

const price = (key: string) =>
  z.string().regex(/^\d+(\.\d+)?$/, `${key} must be a number of dollars per million tokens`)
    .transform(Number).optional();

const positiveInt = (key: string) =>
  z.string().regex(/^\d+$/, `${key} must be a positive integer`).transform(Number).refine(
    (n) => n > 0,
    `${key} must be a positive integer`,
  );

const confSchema = z.object({
  protocol: z.enum(PROTOCOLS, {
    error: (i) =>
      i.input === undefined
        ? "missing protocol= (anthropic, openai or openai-responses)"
        : `unknown protocol "${String(i.input)}" (expected anthropic, openai or openai-responses)`,
  }),
  url: z.string({ error: "missing url=" }).refine((u) => {
    try {
      const p = new URL(u).protocol;
      return p === "http:" || p === "https:";
    } catch {
      return false;
    }
  }, "url= must be an http(s) URL"),
  auth: z.enum(["none"], { error: "auth= must be none (no key), or use auth_env=" }).optional(),
  auth_env: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, "auth_env= must be a variable name")
    .optional(),
  model: z.string().optional(),
  max_tokens: positiveInt("max_tokens").optional(),
  description: z.string().optional(),
  stream: z.enum(["never", "auto"], { error: "stream= must be never or auto" }).optional(),
  timeout: secondsKey("timeout").optional(),
  first_token_timeout: secondsKey("first_token_timeout").optional(),
  deadline: secondsKey("deadline").optional(),
  max_response_bytes: z.string().regex(
    /^\d+\s*[kmg]?(i?b)?$/i,
    "max_response_bytes= must be a number of bytes (e.g. 33554432, 512K, 32M)",
  ).transform((v) => {
    const m = /^(\d+)\s*([kmg]?)/i.exec(v)!;
    return Number(m[1]) * UNITS[m[2].toLowerCase()];
  }).refine((n) => n > 0, "max_response_bytes= must be greater than 0").optional(),
  max_attempts: positiveInt("max_attempts").refine((n) => n <= 10, "max_attempts must be ≤ 10")
    .optional(),
  context: positiveInt("context").optional(),
  max_tool_calls: positiveInt("max_tool_calls").optional(),
  cache: z.enum(["never", "auto"], { error: "cache= must be never or auto" }).optional(),
  price_input: price("price_input"),
  price_output: price("price_output"),
  price_cache_read: price("price_cache_read"),
  price_cache_write: price("price_cache_write"),
});

/** Parses a `.conf` file's text; a bad file → HarnessError naming `path` (and the line). */
export function parseConf(text: string, path: string): ConfVariant {
  const values: Record<string, string> = {};
  /** The line each value came from (for messages). */
  const lineOf: Record<string, number> = {};
  const headers: Record<string, string> = {};
  const unknownKeys: string[] = [];
  const lines = text.split(/\r?\n/);
  lines.forEach((raw, i) => {
    const line = raw.trim();
    if (line === "" || line.startsWith("#")) return;
    const eq = line.indexOf("=");
    if (eq <= 0) {
      throw new HarnessError(
        `${path}:${i + 1}: expected key=value, found ${JSON.stringify(line.slice(0, 60))}`,
        "each line of a .conf is key=value or a # comment",
      );
    }
    const key = line.slice(0, eq).trim();
    const value = line.slice(eq + 1).trim();
    if (key.startsWith("header.")) {
      const name = key.slice("header.".length);
      if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name)) {
        throw new HarnessError(`${path}:${i + 1}: invalid header name "${name}"`);
      }
      if (!Object.keys(headers).some((h) => h.toLowerCase() === name.toLowerCase())) {
        headers[name] = value;
      }
      return;
    }
    if (!KNOWN.has(key)) {
      if (!unknownKeys.includes(key)) unknownKeys.push(key);
      return;
    }
    if (!(key in values)) {
      values[key] = value;
      lineOf[key] = i + 1;
    }
  });
  const res = confSchema.safeParse(values);
  if (!res.success) {
    const issue = res.error.issues[0];
    const key = String(issue.path[0] ?? "");
    const where = lineOf[key] ? `${path}:${lineOf[key]}` : path;
    throw new HarnessError(`${where}: ${issue.message}`, KEYS_HINT);
  }
  const v = res.data;
  if (v.auth === "none" && v.auth_env) {
    throw new HarnessError(
      `${path}:${lineOf.auth}: auth=none and auth_env= contradict each other`,
      "keep auth=none for an endpoint without a key, or auth_env= for one with a key",
    );
  }
  return {
    path,
    protocol: v.protocol,
    url: v.url,
    authEnv: v.auth === "none" ? undefined : v.auth_env || undefined,
    model: v.model ?? "",
    maxTokens: v.max_tokens ?? DEFAULT_MAX_TOKENS[v.protocol],
    description: v.description ?? `${v.protocol} endpoint ${v.url}`,
    stream: v.stream ?? "auto",
    headers,
    timeoutMs: v.timeout !== undefined ? Math.round(v.timeout * 1000) : DEFAULT_TIMEOUT_MS,
    maxAttempts: v.max_attempts ?? 4,
    firstTokenTimeoutMs: v.first_token_timeout !== undefined
      ? Math.round(v.first_token_timeout * 1000)
      : DEFAULT_FIRST_TOKEN_TIMEOUT_MS,
    deadlineMs: v.deadline !== undefined ? Math.round(v.deadline * 1000) : DEFAULT_DEADLINE_MS,
    maxResponseBytes: v.max_response_bytes ?? DEFAULT_MAX_RESPONSE_BYTES,
    maxToolCalls: v.max_tool_calls,
    context: v.context,
    cache: v.cache ?? "auto",
    pricing: v.price_input !== undefined || v.price_output !== undefined
      ? {
        input: v.price_input ?? 0,
        output: v.price_output ?? 0,
        cacheRead: v.price_cache_read,
        cacheWrite: v.price_cache_write,
      }
      : undefined,
    unknownKeys,
    urlLine: lineOf.url,
  };
}

/** The message of a missing key. */
export function missingKeyMessage(authEnv: string, name: string): string {
  return `${authEnv} not set — run: hs auth set ${name}`;
}

/** A model provider backed by a `.conf` variant. */
export function confProvider(
  name: string,
  variant: ConfVariant,
  deps: ProviderDeps,
): ModelProvider {
  const adapter = lazyAdapter(
    variant.protocol,
    adapterOptionsFor(deps, { maxAttempts: variant.maxAttempts }),
  );
  const envKey = () => (variant.authEnv ? deps.env[variant.authEnv] || undefined : undefined);
  return {
    name,
    description: variant.description,
    protocol: variant.protocol,
    async ready(): Promise<Readiness> {
      if (!variant.authEnv) return { ready: true, reason: "no key needed (no auth_env)" };
      if (envKey()) return { ready: true, reason: `auth_env ${variant.authEnv} set` };
      if (await deps.lookupKey(name)) {
        return { ready: true, reason: await storedKeyReason(deps, name) };
      }
      return { ready: false, reason: missingKeyMessage(variant.authEnv, name) };
    },
    defaultModel(): Promise<string> {
      return Promise.resolve(variant.model);
    },
    limits(): Promise<Partial<ModelLimits>> {
      return Promise.resolve({
        context: variant.context,
        // what requests ask for (`max_tokens=`, else the protocol default)
        maxOutput: variant.maxTokens,
        maxToolCalls: variant.maxToolCalls,
        maxToolCallsFrom: `max_tool_calls= in ${variant.path}`,
      });
    },
    pricing(): Promise<Pricing | undefined> {
      return Promise.resolve(variant.pricing);
    },
    async send(payload: SendPayload, model: string, options: SendOptions): Promise<unknown> {
      let apiKey: string | undefined;
      if (variant.authEnv) {
        apiKey = envKey() ?? await deps.lookupKey(name);
        if (!apiKey) {
          throw new ProviderError(missingKeyMessage(variant.authEnv, name), {
            hint: `hs auth set ${name}`,
            reachedServer: false,
          });
        }
      }
      const endpoint: Endpoint = {
        name,
        url: variant.url,
        apiKey,
        model: model || (typeof payload.model === "string" && payload.model) || variant.model,
        maxTokens: variant.maxTokens,
        headers: { ...variant.headers },
        timeoutMs: variant.timeoutMs,
        firstTokenTimeoutMs: variant.firstTokenTimeoutMs,
        deadlineMs: variant.deadlineMs,
        maxResponseBytes: variant.maxResponseBytes,
        stream: variant.stream !== "never" && payload.stream !== false,
        cache: variant.cache !== "never",
        urlFrom: variant.urlLine ? `${variant.path}:${variant.urlLine}` : variant.path,
        protocol: variant.protocol,
      };
      if (!endpoint.model) {
        throw new ProviderError(`${name}: no model selected`, {
          hint: `add model= to ${variant.path} or select a model (HARNESS_MODEL)`,
          reachedServer: false,
        });
      }
      return await adapter.send({ ...payload, model: endpoint.model }, endpoint, options);
    },
  };
}
