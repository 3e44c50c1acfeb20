/**
 * A session's page: its messages rendered on the server, the errors of its
 * last turn, the questions waiting for an answer, the live area the page
 * script fills from `.stream` (server-sent events), and the composer (send a
 * message, cancel the running turn). Without the script, the forms still post
 * and the page shows what the files hold.
 *
 * @module
 */
import type { ConversationMessage } from "../../core/mod.ts";
import { type Html, markup } from "./html.ts";
import { renderError, renderMessage } from "./transcript.ts";
import type { TurnState } from "./runs.ts";

/** What the session page shows. */
export interface SessionView {
  id: string;
  title: string;
  conf: { provider: string; model: string; created: string; cwd: string };
  messages: ConversationMessage[];
  /** Errors of the last turn (from `.stream`), shown after the messages. */
  errors: string[];
  state: TurnState;
  /** A `.stream` request is in flight (started here or elsewhere). */
  streaming: boolean;
  /** Earlier messages left out of `messages` (a long session shows its last ones). */
  hidden?: number;
  /** The summary each compacted message was replaced by (seq → the summary's seq). */
  compacted?: ReadonlyMap<number, number>;
}

/** How many of its last messages a session page shows unless asked for all (`?all=1`). */
export const SHOWN_MESSAGES = 1000;

/** A question of the floor as a form (the page script posts it; without it, it posts). */
export function askForm(a: { id: string; question: string }): Html {
  const q = `ask-${a.id}`;
  return markup`<form class="ask" method="post" action="/ask/${a.id}" data-ask="${a.id}" role="alertdialog" aria-labelledby="${q}"><p id="${q}">${a.question}</p><button type="submit" name="answer" value="once" class="primary">Allow once</button><button type="submit" name="answer" value="always">Always allow (this session)</button><button type="submit" name="answer" value="never" class="danger">Deny</button></form>`;
}

/** The `<main>` attributes the page script reads. */
export function sessionMainAttrs(v: SessionView): Html {
  const last = v.messages.at(-1)?.seq ?? 0;
  const error = v.state.error ? markup` data-error="${v.state.error}"` : "";
  return markup` data-session="${v.id}" data-last="${last}"${error}`;
}

function composer(v: SessionView): Html {
  const enc = encodeURIComponent(v.id);
  const working = v.state.running || v.streaming;
  const status = v.state.asks.length ? "Waiting for your answer" : working ? "Working…" : "Idle";
  const cls = working && !v.state.asks.length ? markup` class="working"` : "";
  const disabled = v.state.running ? "" : markup` disabled`;
  return markup`<div class="composer"><p id="status" role="status" aria-live="polite"${cls}>${status}</p><form id="compose" method="post" action="/s/${enc}/send"><label for="message">Message</label><textarea id="message" name="message" rows="3" required placeholder="Send a message… (Ctrl+Enter sends)"></textarea><div class="row"><button type="submit" class="primary">Send</button><button type="submit" form="cancel" id="cancel-btn" class="danger"${disabled}>Cancel turn</button><span class="grow"></span><a href="/context">What the agent sees</a></div></form><form id="cancel" method="post" action="/s/${enc}/cancel"></form></div>`;
}

/** The session page's main content. */
export function sessionBody(v: SessionView): Html {
  const meta = [v.id, v.conf.provider, v.conf.model, v.conf.cwd].filter(Boolean).join(" · ");
  const turnError = v.state.error ? renderError(v.state.error) : "";
  const hidden = v.hidden
    ? markup`<p class="notice earlier">${
      v.hidden.toLocaleString("en")
    } earlier messages are not shown. <a href="/s/${
      encodeURIComponent(v.id)
    }?all=1">Show the whole session</a></p>`
    : "";
  return markup`<h1>${
    v.title || v.id
  }</h1><p class="muted mono">${meta}</p>${hidden}<section id="transcript" aria-label="Transcript">${
    v.messages.map((m) => renderMessage(m, { compactedInto: v.compacted?.get(m.seq) }))
  }${
    v.errors.map(renderError)
  }${turnError}</section><section id="live" class="msg msg-assistant msg-live" aria-label="The answer so far"></section><section id="asks" aria-live="assertive">${
    v.state.asks.map(askForm)
  }</section>${composer(v)}`;
}
