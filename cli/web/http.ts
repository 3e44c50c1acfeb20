/**
 * Small HTTP helpers of the web server: responses that always carry the
 * security headers, a bounded form/JSON body reader, and redirects.
 *
 * @module
 */
import { SECURITY_HEADERS } from "./access.ts";
import { markup } from "./html.ts";

/** The most a POST body may hold. */
export const MAX_BODY = 1 << 20;

/** An HTML response. */
export function htmlResponse(body: string, status = 200, extra: HeadersInit = {}): Response {
  return new Response(body, {
    status,
    headers: { ...SECURITY_HEADERS, "content-type": "text/html; charset=utf-8", ...extra },
  });
}

/** A JSON response. */
export function jsonResponse(data: unknown, status = 200): Response {
  return new Response(JSON.stringify(data), {
    status,
    headers: { ...SECURITY_HEADERS, "content-type": "application/json; charset=utf-8" },
  });
}

/** A plain-text refusal (no page chrome, nothing reflected but our own reason). */
export function refusal(status: number, reason: string): Response {
  const title = status === 401 ? "Token needed" : status === 404 ? "Not found" : "Refused";
  const hint = status === 401
    ? markup`<p>Open the address <code>hs web</code> printed (it carries the token).</p>`
    : "";
  const body = "<!doctype html>\n" +
    markup`<html lang="en"><head><meta charset="utf-8"><title>${title} · hs web</title></head><body><h1>${title}</h1><p>hs web: ${reason}.</p>${hint}</body></html>`
      .value;
  return htmlResponse(body, status);
}

/** A 303 redirect (after a form post). */
export function seeOther(location: string, extra: HeadersInit = {}): Response {
  return new Response(null, { status: 303, headers: { ...SECURITY_HEADERS, location, ...extra } });
}

/** True when the client wants JSON (the page script) rather than a page. */
export function wantsJson(req: Request): boolean {
  return (req.headers.get("accept") ?? "").includes("application/json");
}

/** A request body that is too large. */
export class BodyTooLarge extends Error {}

/** Reads a form (urlencoded) or JSON body as string fields, at most {@link MAX_BODY} bytes. */
export async function readFields(req: Request): Promise<Record<string, string>> {
  const length = Number(req.headers.get("content-length") ?? "0");
  if (length > MAX_BODY) throw new BodyTooLarge();
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (req.body) {
    const reader = req.body.getReader();
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      size += value.length;
      if (size > MAX_BODY) {
        await reader.cancel();
        throw new BodyTooLarge();
      }
      chunks.push(value);
    }
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    bytes.set(c, at);
    at += c.length;
  }
  const text = new TextDecoder().decode(bytes);
  const type = req.headers.get("content-type") ?? "";
  const out: Record<string, string> = {};
  if (type.includes("application/json")) {
    let data: unknown;
    try {
      data = JSON.parse(text || "{}");
    } catch {
      return out;
    }
    if (data && typeof data === "object" && !Array.isArray(data)) {
      for (const [k, v] of Object.entries(data)) {
        out[k] = typeof v === "string" ? v : JSON.stringify(v);
      }
    }
    return out;
  }
  for (const [k, v] of new URLSearchParams(text)) out[k] = v;
  return out;
}
