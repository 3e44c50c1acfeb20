/**
 * Who may talk to `hs web`: every request carries the per-run token (in the
 * printed URL once, then in an HttpOnly SameSite=Strict cookie named after the
 * port, or as `Authorization: Bearer`), names this server in its `Host` header
 * (a DNS-rebinding page names its own domain) and, when it has an `Origin`, is
 * from this very origin. Nothing answers CORS: there is no preflight and no
 * `Access-Control-*` header, so another origin can neither read nor post.
 *
 * @module
 */

/** Headers on every answer: a strict CSP (own script and style only), no framing, no caching. */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  "content-security-policy": [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "connect-src 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    "base-uri 'none'",
  ].join("; "),
  "x-content-type-options": "nosniff",
  // not "no-referrer": under it Chromium sends `Origin: null` with a form's POST, which
  // the Origin check must refuse; "same-origin" still tells other sites nothing
  "referrer-policy": "same-origin",
  "x-frame-options": "DENY",
  "cross-origin-opener-policy": "same-origin",
  "cross-origin-resource-policy": "same-origin",
  "cache-control": "no-store",
};

/** A new random token: 32 bytes, base64url. */
export function newToken(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_")
    .replace(/=+$/, "");
}

/** Compares two strings in time that depends only on their lengths. */
export function sameSecret(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

const IPV4 = /^\d{1,3}(?:\.\d{1,3}){3}$/;
const IPV6 = /^\[[0-9a-f:.]+\]$/i;

/** True for an IP literal as it appears in a Host header (`1.2.3.4`, `[::1]`). */
export function isIpLiteral(host: string): boolean {
  return IPV4.test(host) || IPV6.test(host);
}

/** True for a loopback address or name. */
export function isLoopback(hostname: string): boolean {
  const h = hostname.replace(/^\[|\]$/g, "");
  return h === "localhost" || h === "::1" || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h);
}

/** True for a wildcard bind address (every interface). */
export function isWildcard(hostname: string): boolean {
  const h = hostname.replace(/^\[|\]$/g, "");
  return h === "0.0.0.0" || h === "::";
}

/** The Host names (without port) a server bound to `hostname` answers to. */
export function hostNames(hostname: string, machine?: string): Set<string> {
  const h = hostname.includes(":") && !hostname.startsWith("[") ? `[${hostname}]` : hostname;
  const names = new Set<string>([h.toLowerCase()]);
  if (isLoopback(hostname) || isWildcard(hostname)) {
    names.add("localhost");
    names.add("127.0.0.1");
    names.add("[::1]");
  }
  if (isWildcard(hostname) && machine) names.add(machine.toLowerCase());
  return names;
}

/** How a request stands. */
export type Admission =
  | { ok: true; via: "cookie" | "bearer" | "query" }
  | { ok: false; status: number; reason: string };

/** Options of {@link WebAccess}. */
export interface WebAccessOptions {
  token: string;
  /** The address the server listens on (`127.0.0.1` unless `--host`). */
  hostname: string;
  port: number;
  /** The machine's name, accepted as Host when listening on every interface. */
  machine?: string;
}

/** The checks of every request (token, Host, Origin, method). */
export class WebAccess {
  readonly token: string;
  readonly port: number;
  #names: Set<string>;
  #wildcard: boolean;

  constructor(opts: WebAccessOptions) {
    this.token = opts.token;
    this.port = opts.port;
    this.#names = hostNames(opts.hostname, opts.machine);
    this.#wildcard = isWildcard(opts.hostname);
  }

  /** The cookie that carries the token (one per port: cookies ignore ports). */
  get cookieName(): string {
    return `hs_web_${this.port}`;
  }

  /** The `Set-Cookie` value that stores the token in the browser. */
  cookie(): string {
    return `${this.cookieName}=${this.token}; Path=/; HttpOnly; SameSite=Strict`;
  }

  /** True when a Host header names this server (rebinding pages name their own domain). */
  hostAllowed(host: string | null): boolean {
    if (!host) return false;
    const m = /^(\[[^\]]+\]|[^:]+)(?::(\d+))?$/.exec(host.trim().toLowerCase());
    if (!m) return false;
    const [, name, port] = m;
    if ((port ?? "80") !== String(this.port)) return false;
    // an IP literal cannot be rebound: a wildcard bind accepts any of this machine's
    return this.#names.has(name) || (this.#wildcard && isIpLiteral(name));
  }

  /** Checks a request; `url` is its parsed URL. */
  admit(req: Request, url: URL): Admission {
    const method = req.method;
    if (method !== "GET" && method !== "HEAD" && method !== "POST") {
      return { ok: false, status: 405, reason: `method ${method} is not served` };
    }
    const host = req.headers.get("host");
    if (!this.hostAllowed(host)) {
      return {
        ok: false,
        status: 403,
        reason: `Host "${host ?? ""}" is not this server (a DNS-rebinding page?)`,
      };
    }
    const origin = req.headers.get("origin");
    if (origin !== null && origin !== `http://${host}`) {
      return { ok: false, status: 403, reason: "requests from another origin are refused" };
    }
    const site = req.headers.get("sec-fetch-site");
    const navigation = method === "GET" && req.headers.get("sec-fetch-mode") === "navigate";
    if (site && site !== "same-origin" && site !== "none" && !navigation) {
      return { ok: false, status: 403, reason: "requests from another site are refused" };
    }
    const auth = req.headers.get("authorization");
    const bearer = auth?.startsWith("Bearer ") ? auth.slice(7).trim() : undefined;
    if (method === "POST" && origin === null && bearer === undefined) {
      // a browser always sends Origin with a POST: one without it must prove itself
      return { ok: false, status: 403, reason: "a POST needs its Origin (or a bearer token)" };
    }
    if (bearer !== undefined) {
      return sameSecret(bearer, this.token)
        ? { ok: true, via: "bearer" }
        : { ok: false, status: 401, reason: "wrong token" };
    }
    const query = url.searchParams.get("token");
    if (query !== null) {
      return sameSecret(query, this.token)
        ? { ok: true, via: "query" }
        : { ok: false, status: 401, reason: "wrong token" };
    }
    const cookie = cookieValue(req.headers.get("cookie"), this.cookieName);
    if (cookie !== undefined && sameSecret(cookie, this.token)) return { ok: true, via: "cookie" };
    return { ok: false, status: 401, reason: "this page needs the token hs web printed" };
  }
}

/**
 * The URL of a request, or undefined when its `Host` header makes none (a space, an
 * unclosed `[`, a port past 65535, a forbidden character): such a request is a client's
 * error, answered 400 before anything else reads it.
 */
export function requestUrl(req: Request): URL | undefined {
  try {
    return new URL(req.url);
  } catch {
    return undefined;
  }
}

/** The refusal reason of a request whose Host header is malformed (shown, so kept short). */
export function malformedHost(host: string | null): string {
  const shown = JSON.stringify((host ?? "").slice(0, 60));
  return `the Host header ${shown} is malformed (expected name:port, e.g. 127.0.0.1:8080)`;
}

/** One cookie's value from a Cookie header. */
export function cookieValue(header: string | null, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(";")) {
    const i = part.indexOf("=");
    if (i > 0 && part.slice(0, i).trim() === name) return part.slice(i + 1).trim();
  }
  return undefined;
}
