/**
 * The sessions page: questions waiting for an answer, a form that starts a
 * new session, and the sessions newest first.
 *
 * @module
 */
import { type Html, markup } from "./html.ts";
import type { SessionSummary } from "./session_list.ts";
import type { PendingAsk } from "./runs.ts";

/** What the sessions page shows. */
export interface SessionsView {
  sessions: SessionSummary[];
  total: number;
  /** The link that shows every session (when some are left out). */
  allLink?: string;
  /** True when the list holds every workspace's sessions, not only this one's. */
  everyWorkspace?: boolean;
  asks: PendingAsk[];
  running(id: string): boolean;
  /** An error to show (a turn that could not start). */
  error?: string;
}

function when(iso: string): string {
  return iso.replace("T", " ").replace(/([+-]\d\d:\d\d|Z)$/, "");
}

function waiting(asks: PendingAsk[]): Html | "" {
  if (asks.length === 0) return "";
  const items = asks.map((a) => {
    const where = a.session
      ? markup` — <a href="/s/${encodeURIComponent(a.session)}">session ${a.session}</a>`
      : "";
    return markup`<li>${a.question}${where}</li>`;
  });
  return markup`<section class="banner" aria-labelledby="asks-title"><h2 id="asks-title">Waiting for your answer</h2><ul>${items}</ul></section>`;
}

function table(v: SessionsView): Html {
  if (v.sessions.length === 0) {
    return markup`<p class="muted">No sessions yet in this workspace.</p>`;
  }
  const rows = v.sessions.map((s) => {
    const running = v.running(s.id) ? markup` <span class="badge wait">running</span>` : "";
    const title = s.title || markup`<span class="muted">(no message)</span>`;
    const model = [s.provider, s.model].filter(Boolean).join(" · ");
    return markup`<tr><td><a href="/s/${
      encodeURIComponent(s.id)
    }">${s.id}</a>${running}</td><td>${title}</td><td class="num">${s.messages}</td><td>${
      when(s.created)
    }</td><td>${model}</td></tr>`;
  });
  const all = v.allLink
    ? markup`<p class="muted">${v.sessions.length} of ${v.total} shown — <a href="${v.allLink}">show all</a></p>`
    : "";
  return markup`<div class="table-wrap"><table class="data sessions"><caption class="visually-hidden">Sessions, newest first</caption><thead><tr><th scope="col">Session</th><th scope="col">First message</th><th scope="col">Messages</th><th scope="col">Started</th><th scope="col">Model</th></tr></thead><tbody>${rows}</tbody></table></div>${all}`;
}

/** The sessions page's main content. */
export function sessionsBody(v: SessionsView): Html {
  const error = v.error ? markup`<p class="notice error" role="alert">${v.error}</p>` : "";
  const scope = v.everyWorkspace
    ? markup`<p class="muted">Every workspace's sessions — <a href="/">only this workspace's</a></p>`
    : markup`<p class="muted">This workspace's sessions — <a href="/?workspaces=all">every workspace's</a></p>`;
  return markup`<h1>Sessions</h1>${scope}${
    waiting(v.asks)
  }${error}<form id="new-session" class="card" method="post" action="/new"><label for="new-message">Start a new session</label><textarea id="new-message" name="message" rows="3" required placeholder="Ask the agent… (Ctrl+Enter sends)"></textarea><div class="row"><button type="submit" class="primary">Start</button><span class="muted">The agent works in this workspace, under its effect floor.</span></div></form>${
    table(v)
  }`;
}
