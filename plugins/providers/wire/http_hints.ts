/**
 * What to check when a provider request fails: a refused connection names the URL and where
 * `url=` was set; a 404 names the path and the protocol.
 *
 * @module
 */
import { type Endpoint, ProviderError } from "../../../core/mod.ts";

/** Replaces every occurrence of the key in a text. */
export function scrub(text: string, key: string | undefined): string {
  if (!key || key.length < 4) return text;
  return text.split(key).join("***");
}

/** The path each protocol posts to (for the hint of a 404). */
const PROTOCOL_PATHS: Record<string, string> = {
  anthropic: "/v1/messages",
  openai: "/v1/chat/completions",
  "openai-responses": "/v1/responses",
};

/** Where `url=` was set, for a message (` (url= in file:line)`), or "". */
function urlFromNote(ep: Endpoint): string {
  return ep.urlFrom ? ` (url= in ${ep.urlFrom})` : "";
}

/** A refused connection, said as what to check; any other error unchanged. */
export function refusedConnection(
  err: unknown,
  e: ProviderError,
  ep: Endpoint,
  url: string,
): ProviderError {
  const texts = [err, (err as { cause?: unknown })?.cause].map((x) =>
    x instanceof Error ? `${x.name} ${x.message}` : String(x)
  );
  if (!texts.some((t) => /ConnectionRefused|connection refused|ECONNREFUSED/i.test(t))) return e;
  const hint = `start the server, or fix url=${urlFromNote(ep)}`;
  return new ProviderError(
    `${ep.name}: nothing listens at ${url} — is the server running?${urlFromNote(ep)}`,
    { hint, retryable: false, reachedServer: false },
  );
}

/** What to check after an HTTP 404: the path of `url=` and the protocol. */
export function notFoundHint(ep: Endpoint, url: string): string {
  const path = ep.protocol ? PROTOCOL_PATHS[ep.protocol] : undefined;
  return `check the path in url= (${url})${urlFromNote(ep)} and protocol=${ep.protocol ?? "?"}` +
    (path ? ` (protocol=${ep.protocol} servers usually answer at …${path})` : "");
}

/**
 * A stream of events none of which the protocol understood: the server speaks another
 * protocol (an Anthropic server behind `protocol=openai`, or the reverse).
 */
export function foreignStream(
  ep: Endpoint,
  seen: { sse: number; first: string },
  err: unknown,
): ProviderError {
  const first = seen.first.replace(/\s+/g, " ").slice(0, 80);
  const why = err instanceof Error ? err.message : String(err);
  const hint = `set protocol= in ${ep.urlFrom?.replace(/:\d+$/, "") ?? "the provider's .conf"} ` +
    "to the server's protocol (anthropic, openai or openai-responses), or fix the path in url=";
  return new ProviderError(
    `${ep.name}: the server does not speak protocol=${ep.protocol ?? "?"}: ` +
      `${seen.sse} event(s), none understood (first: ${first}; ${why}) — ${hint}`,
    { hint, retryable: false },
  );
}

/** An SSE event as one line of a message (the key masked). */
export function eventText(e: { event?: string; data: string }, key: string | undefined): string {
  return scrub((e.event ? `event: ${e.event} ` : "") + e.data, key);
}
