/**
 * The `hs web` server on `Deno.serve`: loopback only unless an address is
 * named, every request admitted by {@link WebAccess} first (token, Host,
 * Origin), then routed:
 *
 * | route | what |
 * | --- | --- |
 * | `GET /` | sessions, and the form that starts one (`POST /new`) |
 * | `GET /s/:id` | a session's transcript; `POST /s/:id/send`, `POST /s/:id/cancel` |
 * | `GET /s/:id/events` | server-sent events: new messages, `.stream` lines, turn state |
 * | `POST /ask/:id` | answers the effect floor's question (`once`, `always`, `never`) |
 * | `GET /context` | what the main agent sees and may do |
 * | `GET /plugins` | runtime plugins, packs and bots; `POST /packs/approve` gives consent |
 * | `GET /p/:id` | a plugin page from its descriptor; `POST /p/:id/action` runs an action (then redirects) |
 * | `GET /assets/*` | the stylesheet, the scripts, the icon (embedded) |
 *
 * Forms post and redirect without the page script; the script asks for JSON.
 *
 * @module
 */
import { join } from "../../core/early/mod.ts";
import {
  type Answer,
  errorMessage,
  type FrontEnd,
  HarnessError,
  isOwnDir,
  isOwnFile,
  type Json,
  permissionDenied,
  readOwnText,
  Session,
} from "../../core/mod.ts";
import { malformedHost, requestUrl, SECURITY_HEADERS, WebAccess } from "./access.ts";
import { ASSETS } from "./assets.ts";
import { contextModel } from "./context_model.ts";
import {
  BodyTooLarge,
  htmlResponse,
  jsonResponse,
  readFields,
  refusal,
  seeOther,
  wantsJson,
} from "./http.ts";
import { shell } from "./layout.ts";
import { contextBody } from "./page_context.ts";
import {
  consentBanner,
  type ConsentItem,
  pluginPageBody,
  type PluginPageView,
  pluginsBody,
} from "./page_plugins.ts";
import { sessionBody, sessionMainAttrs, SHOWN_MESSAGES } from "./page_session.ts";
import { sessionsBody } from "./page_sessions.ts";
import type { WebRuns } from "./runs.ts";
import { recentSessions, titleOf } from "./session_list.ts";
import { SseStream } from "./sse.ts";
import { endsWithDone, SessionTail } from "./tail.ts";
import { renderMessage, streamErrors } from "./transcript.ts";
import { type Html, markup } from "./html.ts";
import { loadMarkdown } from "../view/mod.ts";

/** Options of {@link startWebServer}. */
export interface WebServerOptions {
  harness: FrontEnd;
  runs: WebRuns;
  /** Address to listen on (default `127.0.0.1`). */
  hostname?: string;
  /** Port (default 0: any free port). */
  port?: number;
  /** The token (default: a new random one). */
  token: string;
  /** Sessions shown on the first page (default 100). */
  listLimit?: number;
  /** List every workspace's sessions by default, not only this one's (`hs web --all`). */
  everyWorkspace?: boolean;
  /** The keep-alive comment interval of event streams (default 15 s). */
  heartbeatMs?: number;
  log(line: string): void;
}

/** A running server. */
export interface WebServer {
  /** `http://host:port` */
  origin: string;
  /** The address to open: the origin with the token. */
  url: string;
  port: number;
  hostname: string;
  /** Stops: ends event streams, then the server. */
  close(): Promise<void>;
  /** Resolves when the server stopped. */
  finished: Promise<void>;
}

const SESSION_ID = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;
const ANSWERS: readonly Answer[] = ["once", "always", "never"];

/** The origin of an address and port (IPv6 in brackets). */
export function originOf(hostname: string, port: number): string {
  const host = hostname.includes(":") ? `[${hostname}]` : hostname;
  return `http://${host}:${port}`;
}

/** What the handler needs. */
interface Ctx {
  h: FrontEnd;
  runs: WebRuns;
  access: () => WebAccess;
  streams: Set<SseStream>;
  sessions: Map<string, Session>;
  /** Results of plugin page actions posted by a form, until the page after the redirect shows them. */
  results: Map<string, PluginPageView["result"]>;
  listLimit: number;
  /** List every workspace's sessions by default (`hs web --all`). */
  everyWorkspace?: boolean;
  heartbeatMs?: number;
  log(line: string): void;
}

/** Starts the server; rejects with a HarnessError when it cannot listen. */
export async function startWebServer(o: WebServerOptions): Promise<WebServer> {
  // messages are rendered here: the lexer and the highlighter before the first page
  await loadMarkdown({ highlight: true }).catch(() => {/* messages stay plain text */});
  return listen(o);
}

function listen(o: WebServerOptions): WebServer {
  const hostname = o.hostname ?? "127.0.0.1";
  const holder: { access?: WebAccess } = {};
  const ctx: Ctx = {
    h: o.harness,
    runs: o.runs,
    access: () => holder.access!,
    streams: new Set(),
    sessions: new Map(),
    results: new Map(),
    listLimit: o.listLimit ?? 100,
    everyWorkspace: o.everyWorkspace,
    heartbeatMs: o.heartbeatMs,
    log: o.log,
  };
  let server: Deno.HttpServer<Deno.NetAddr>;
  try {
    server = Deno.serve({
      hostname,
      port: o.port ?? 0,
      onListen: () => {},
      onError: (err) => {
        o.log(`[web] ${errorMessage(err)}`);
        return refusal(500, "something went wrong (see HARNESS_LOG)");
      },
    }, (req) => handle(ctx, req));
  } catch (err) {
    const denied = permissionDenied(err);
    if (denied) throw denied;
    if (err instanceof Deno.errors.AddrInUse) {
      throw new HarnessError(
        `port ${o.port} is in use on ${hostname}`,
        "choose another with --port N, or --port 0 for any free port",
      );
    }
    if (err instanceof Deno.errors.AddrNotAvailable) {
      throw new HarnessError(
        `cannot listen on ${hostname}: not an address of this machine`,
        "use --host with an address of this machine (default 127.0.0.1)",
      );
    }
    throw err;
  }
  const port = server.addr.port;
  let machine: string | undefined;
  try {
    machine = Deno.hostname();
  } catch { /* not granted: IP literals and localhost only */ }
  holder.access = new WebAccess({ token: o.token, hostname, port, machine });
  const origin = originOf(
    hostname === "0.0.0.0" || hostname === "::" ? "127.0.0.1" : hostname,
    port,
  );
  let closing: Promise<void> | undefined;
  return {
    origin,
    url: `${origin}/?token=${o.token}`,
    port,
    hostname,
    finished: server.finished,
    close() {
      closing ??= (async () => {
        for (const s of [...ctx.streams]) s.close();
        await server.shutdown();
      })();
      return closing;
    },
  };
}

async function handle(ctx: Ctx, req: Request): Promise<Response> {
  const url = requestUrl(req);
  if (!url) return refusal(400, malformedHost(req.headers.get("host")));
  const admitted = ctx.access().admit(req, url);
  if (!admitted.ok) return refusal(admitted.status, admitted.reason);
  if (admitted.via === "query" && req.method !== "POST") {
    // the token moves into a cookie and out of the address bar (and the history)
    const clean = new URL(url);
    clean.searchParams.delete("token");
    return seeOther(clean.pathname + clean.search + clean.hash, {
      "set-cookie": ctx.access().cookie(),
    });
  }
  try {
    const res = await route(ctx, req, url);
    return req.method === "HEAD" ? new Response(null, res) : res;
  } catch (err) {
    if (err instanceof BodyTooLarge) return refusal(413, "the request is too large");
    const message = errorMessage(err);
    ctx.log(`[web] ${req.method} ${url.pathname}: ${message}`);
    if (wantsJson(req)) {
      return jsonResponse({ error: message }, err instanceof HarnessError ? 400 : 500);
    }
    const body = markup`<h1>Error</h1><p class="notice error" role="alert">${message}</p>`;
    return page(
      ctx,
      "Error",
      "",
      body,
      500,
    );
  }
}

async function route(ctx: Ctx, req: Request, url: URL): Promise<Response> {
  const path = url.pathname;
  const get = req.method === "GET" || req.method === "HEAD";
  const asset = ASSETS[path];
  if (asset && get) {
    return new Response(asset.body, {
      headers: {
        ...SECURITY_HEADERS,
        "content-type": asset.type,
        "cache-control": "private, max-age=86400",
      },
    });
  }
  if (path === "/favicon.ico" && get) return seeOther("/assets/icon.svg");
  if (path === "/" && get) return sessionsPage(ctx, url);
  if (path === "/new" && req.method === "POST") return newSession(ctx, req);
  if (path === "/context" && get) {
    const m = await contextModel(ctx.h);
    return page(ctx, "Context", "context", contextBody(m));
  }
  if (path === "/plugins" && get) return pluginsPage(ctx, url);
  if (path === "/packs/approve" && req.method === "POST") return approve(ctx, req);
  let m = /^\/s\/([^/]+)(\/events|\/send|\/cancel)?$/.exec(path);
  if (m) {
    const id = decodeURIComponent(m[1]);
    if (!SESSION_ID.test(id)) return refusal(404, "no such session");
    const dir = ctx.h.sessions.find(id);
    if (!dir || !isOwnDir(dir) || !isOwnFile(join(dir, "session.conf"))) {
      return refusal(404, "no such session");
    }
    if (!m[2] && get) return sessionPage(ctx, id, dir, url.searchParams.has("all"));
    if (m[2] === "/events" && get) return events(ctx, req, url, id, dir);
    if (m[2] === "/send" && req.method === "POST") return send(ctx, req, id);
    if (m[2] === "/cancel" && req.method === "POST") {
      const cancelled = ctx.runs.cancel(id);
      return wantsJson(req)
        ? jsonResponse({ cancelled })
        : seeOther(`/s/${encodeURIComponent(id)}`);
    }
  }
  m = /^\/ask\/([A-Za-z0-9-]+)$/.exec(path);
  if (m && req.method === "POST") return answer(ctx, req, m[1]);
  m = /^\/p\/([^/]+)(\/action)?$/.exec(path);
  if (m) {
    const id = decodeURIComponent(m[1]);
    const info = ctx.h.admin.pages.list().find((p) => p.id === id);
    if (!info) return refusal(404, "no such page");
    if (!m[2] && get) {
      // the result of the action just posted (once: a reload shows the page without it)
      const key = url.searchParams.get("result") ?? "";
      const result = ctx.results.get(key);
      ctx.results.delete(key);
      return pluginPage(ctx, info.id, result);
    }
    if (m[2] && req.method === "POST") return pageAction(ctx, req, info.id);
  }
  return refusal(404, "nothing here");
}

/** Bots whose guards wait for consent (foreground ones block the main agent). */
function consentItems(ctx: Ctx, all = false): ConsentItem[] {
  return ctx.h.packs.bots()
    .filter((b) => b.pending.length > 0 && (all || b.spec.attach === "foreground"))
    .map((b) => ({ pack: b.pack.name, bot: b.spec.name, guards: b.pending }));
}

function page(
  ctx: Ctx,
  title: string,
  active: string,
  body: Html,
  status = 200,
  main?: Html,
): Response {
  return htmlResponse(
    shell({
      title,
      active,
      pages: ctx.h.admin.pages.list().map((p) => ({ id: p.id, title: p.title })),
      body,
      banner: active === "plugins" ? undefined : consentBanner(consentItems(ctx)),
      main,
    }),
    status,
  );
}

function sessionsPage(ctx: Ctx, url: URL, error?: string, status = 200): Response {
  const all = url.searchParams.get("all") === "1";
  const every = url.searchParams.get("workspaces") === "all" || (ctx.everyWorkspace ?? false);
  const refs = ctx.h.sessions.list(every);
  const { total, sessions } = recentSessions(refs, all ? Infinity : ctx.listLimit);
  return page(
    ctx,
    "Sessions",
    "sessions",
    sessionsBody({
      sessions,
      total,
      allLink: sessions.length < total ? `/?all=1${every ? "&workspaces=all" : ""}` : undefined,
      everyWorkspace: every,
      asks: ctx.runs.asks(),
      running: (id) => ctx.runs.running(id),
      error,
    }),
    status,
  );
}

function openSession(ctx: Ctx, dir: string): Session {
  let s = ctx.sessions.get(dir);
  if (s) {
    s.refresh(false);
    ctx.sessions.delete(dir);
  } else s = Session.open(dir);
  ctx.sessions.set(dir, s);
  while (ctx.sessions.size > 8) ctx.sessions.delete(ctx.sessions.keys().next().value!);
  return s;
}

function readStream(dir: string): string {
  return readOwnText(join(dir, ".stream")) ?? "";
}

function sessionPage(ctx: Ctx, id: string, dir: string, all: boolean): Response {
  const s = openSession(ctx, dir);
  const entries = s.entries();
  const every = entries.map((e) => e.message);
  const compacted = new Map<number, number>();
  for (const e of entries) if (e.compacted) compacted.set(e.seq, e.compacted);
  // a long session shows its last messages (parsing megabytes of markup is what costs)
  const hidden = all ? 0 : Math.max(0, every.length - SHOWN_MESSAGES);
  const messages = hidden ? every.slice(hidden) : every;
  const stream = readStream(dir);
  const over = stream === "" || endsWithDone(stream);
  const state = ctx.runs.state(id);
  const firstUser = every.find((m) => m.role === "user");
  const view = {
    id,
    title: firstUser?.role === "user" ? titleOf(firstUser.text, 80) : "",
    conf: {
      provider: s.conf.provider,
      model: s.conf.model,
      created: s.conf.created,
      cwd: s.conf.cwd,
    },
    messages,
    errors: over ? streamErrors(stream) : [],
    state,
    streaming: !over,
    hidden,
    compacted,
  };
  const main = sessionMainAttrs(view);
  return page(ctx, view.title || id, "sessions", sessionBody(view), 200, main);
}

function events(ctx: Ctx, req: Request, url: URL, id: string, dir: string): Response {
  const after = Math.max(
    Number.parseInt(url.searchParams.get("after") ?? "0", 10) || 0,
    Number.parseInt(req.headers.get("last-event-id") ?? "0", 10) || 0,
  );
  const parts: { tail?: SessionTail; unsubscribe?: () => void } = {};
  const stream = new SseStream({
    headers: SECURITY_HEADERS,
    heartbeatMs: ctx.heartbeatMs,
    onClose: () => {
      parts.tail?.close();
      parts.unsubscribe?.();
      ctx.streams.delete(stream);
    },
  });
  ctx.streams.add(stream);
  const state = () => stream.send("state", ctx.runs.state(id));
  parts.unsubscribe = ctx.runs.subscribe((s) => {
    if (s === id || s === "") state();
  });
  state();
  const tail = parts.tail = new SessionTail(dir, {
    after,
    onEvents: (list) => {
      for (const e of list) {
        if (e.kind === "message") {
          stream.send(
            "msg",
            { seq: e.seq, role: e.message.role, html: renderMessage(e.message).value },
            String(e.seq),
          );
        } else if (e.kind === "stream") stream.send("stream", e.event);
        else stream.send("reset", {});
      }
    },
  });
  tail.start();
  // the stream may have ended while it was being set up
  if (stream.closed) tail.close();
  return stream.response;
}

async function newSession(ctx: Ctx, req: Request): Promise<Response> {
  const f = await readFields(req);
  try {
    const id = await ctx.runs.start(f.message ?? "");
    return wantsJson(req)
      ? jsonResponse({ session: id }, 201)
      : seeOther(`/s/${encodeURIComponent(id)}`);
  } catch (err) {
    const message = errorMessage(err) +
      (err instanceof HarnessError && err.hint ? ` (${err.hint})` : "");
    if (wantsJson(req)) return jsonResponse({ error: message }, 400);
    return sessionsPage(ctx, new URL(req.url), message, 400);
  }
}

async function send(ctx: Ctx, req: Request, id: string): Promise<Response> {
  const f = await readFields(req);
  try {
    await ctx.runs.start(f.message ?? "", id);
  } catch (err) {
    const message = errorMessage(err);
    const busy = /already running/.test(message);
    if (wantsJson(req)) return jsonResponse({ error: message }, busy ? 409 : 400);
    return refusal(busy ? 409 : 400, message.replace(/\.$/, ""));
  }
  return wantsJson(req)
    ? jsonResponse({ session: id }, 202)
    : seeOther(`/s/${encodeURIComponent(id)}`);
}

async function answer(ctx: Ctx, req: Request, askId: string): Promise<Response> {
  const f = await readFields(req);
  const a = f.answer as Answer;
  if (!ANSWERS.includes(a)) {
    return wantsJson(req)
      ? jsonResponse({ error: "answer once, always or never" }, 400)
      : refusal(400, "answer once, always or never");
  }
  const session = ctx.runs.asks().find((x) => x.id === askId)?.session ?? "";
  const answered = ctx.runs.answer(askId, a);
  if (wantsJson(req)) return jsonResponse({ answered }, answered ? 200 : 410);
  return seeOther(session ? `/s/${encodeURIComponent(session)}` : "/");
}

async function pluginsPage(ctx: Ctx, url: URL): Promise<Response> {
  await ctx.h.packs.loadNamed();
  const plugins = ctx.h.admin.runtimePluginStatus().map((status) => ({
    status,
    contributions: ctx.h.admin.contributions(status.id),
  }));
  const approved = url.searchParams.get("approved");
  return page(
    ctx,
    "Plugins",
    "plugins",
    pluginsBody(
      plugins,
      ctx.h.packs.list(),
      ctx.h.admin.pages.list(),
      approved ? `Approved the guards of ${approved}.` : undefined,
    ),
  );
}

async function approve(ctx: Ctx, req: Request): Promise<Response> {
  const f = await readFields(req);
  await ctx.h.packs.loadNamed();
  const b = ctx.h.packs.bots().find((x) =>
    x.pack.name === f.pack && x.spec.name === f.bot && x.pending.length > 0
  );
  if (!b) {
    return wantsJson(req)
      ? jsonResponse({ error: "no guards of that bot wait for approval" }, 404)
      : refusal(404, "no guards of that bot wait for approval");
  }
  const guards = b.pending.map((g) => g.guard);
  await ctx.h.packs.approve(b);
  ctx.log(`[web] approved ${b.pack.name}/${b.spec.name}: ${guards.join(", ")}`);
  return wantsJson(req)
    ? jsonResponse({ approved: guards, status: b.status })
    : seeOther(`/plugins?approved=${encodeURIComponent(`${b.pack.name}/${b.spec.name}`)}#packs`);
}

async function pluginPage(
  ctx: Ctx,
  id: string,
  result: PluginPageView["result"],
  status = 200,
): Promise<Response> {
  const info = ctx.h.admin.pages.list().find((p) => p.id === id)!;
  let data: PluginPageView["data"];
  try {
    data = { ok: true, value: await ctx.h.admin.pages.read(id) };
  } catch (err) {
    data = { ok: false, error: errorMessage(err) };
  }
  return page(ctx, info.title, `page:${id}`, pluginPageBody({ page: info, data, result }), status);
}

async function pageAction(ctx: Ctx, req: Request, id: string): Promise<Response> {
  const f = await readFields(req);
  const action = f.action ?? "";
  let args: Json = {};
  let bad: string | undefined;
  if (f.args !== undefined && f.args.trim() !== "") {
    try {
      args = JSON.parse(f.args);
    } catch {
      bad = "the arguments are not JSON";
    }
  }
  let result: PluginPageView["result"];
  if (bad) result = { action, ok: false, error: bad };
  else {
    try {
      result = { action, ok: true, value: await ctx.h.admin.pages.action(id, action, args) };
    } catch (err) {
      result = { action, ok: false, error: errorMessage(err) };
    }
  }
  if (wantsJson(req)) {
    return result.ok
      ? jsonResponse({ result: result.value })
      : jsonResponse({ error: result.error }, 400);
  }
  // post, redirect, get: reloading the page does not run the action again
  const key = crypto.randomUUID();
  ctx.results.set(key, result);
  while (ctx.results.size > 32) ctx.results.delete(ctx.results.keys().next().value!);
  return seeOther(`/p/${encodeURIComponent(id)}?result=${key}`);
}
