/**
 * Turns started from the browser: one at a time per session, cancellable, and
 * the effect floor's `ask` routed to the browser. The floor's asker only gets
 * the question; the turn it belongs to is found through the async context the
 * turn runs in (`AsyncLocalStorage`), so two sessions asking at once each get
 * their own question. A question waits until someone answers it in the
 * browser, or its turn is cancelled (then it is denied).
 *
 * @module
 */
import { AsyncLocalStorage } from "node:async_hooks";
import type { Answer, RunOptions, RunResult } from "../../core/mod.ts";
import { errorMessage, HarnessError } from "../../core/mod.ts";

/** A question of the floor waiting for the browser. */
export interface PendingAsk {
  id: string;
  /** The session whose turn asks ("" when it cannot be told). */
  session: string;
  question: string;
}

/** What the browser shows about a session's turn. */
export interface TurnState {
  /** A turn started here is running. */
  running: boolean;
  /** How the last turn started here ended. */
  outcome?: "done" | "cancelled" | "error";
  /** Why it failed (when it never reached the session's `.stream`). */
  error?: string;
  /** Questions waiting for an answer. */
  asks: { id: string; question: string }[];
}

/** Options of {@link WebRuns}. */
export interface WebRunsOptions {
  /** Runs one turn (the harness's `run`). */
  run(opts: RunOptions): Promise<RunResult>;
  provider?: string;
  model?: string;
  log(line: string): void;
}

/** The run a piece of async work belongs to. */
interface RunScope {
  session: string;
  signal: AbortSignal;
}

interface Running {
  controller: AbortController;
  done: Promise<unknown>;
}

/** The floor's terminal question, as one sentence for a page. */
export function questionText(question: string): string {
  const lines = question.split("\n").map((l) => l.trim())
    .filter((l) => l && !/^Allow\?/.test(l));
  const text = lines.join(" ").replace(/^hs:\s*/, "");
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** Turns started from the browser, and the questions they ask. */
export class WebRuns {
  #o: WebRunsOptions;
  #scope = new AsyncLocalStorage<RunScope>();
  #running = new Map<string, Running>();
  /** Every turn in flight, also those whose session is not created yet. */
  #all = new Set<Running>();
  #ended = new Map<string, { outcome: "done" | "cancelled" | "error"; error?: string }>();
  #asks = new Map<string, PendingAsk & { resolve(a: Answer): void }>();
  #listeners = new Set<(session: string) => void>();
  #closed = false;

  constructor(opts: WebRunsOptions) {
    this.#o = opts;
  }

  /**
   * Starts a turn with `message` in `session` (a new session when absent). Resolves to
   * the session id once the session exists; rejects when the turn could not start.
   */
  start(message: string, session?: string): Promise<string> {
    if (this.#closed) {
      return Promise.reject(new HarnessError("hs web is stopping: it starts no turn"));
    }
    if (!message.trim()) return Promise.reject(new HarnessError("the message is empty"));
    if (session && this.#running.has(session)) {
      return Promise.reject(
        new HarnessError(
          "a turn is already running in this session",
          "wait for it, or cancel it",
        ),
      );
    }
    const controller = new AbortController();
    const running: Running = { controller, done: Promise.resolve() };
    const scope: RunScope = { session: session ?? "", signal: controller.signal };
    let known: (id: string) => void = () => {};
    let failed: (err: unknown) => void = () => {};
    const started = new Promise<string>((resolve, reject) => {
      known = resolve;
      failed = reject;
    });
    const claim = (id: string) => {
      scope.session = id;
      if (!this.#running.has(id)) this.#running.set(id, running);
      this.#ended.delete(id);
      known(id);
      this.#changed(id);
    };
    running.done = this.#scope.run(scope, async () => {
      try {
        const r = await this.#o.run({
          message,
          session,
          provider: this.#o.provider,
          model: this.#o.model,
          signal: controller.signal,
          // the browser drives the main agent: its foreground bot and ceiling apply
          principal: "main",
          onEvent: (e) => {
            if (e.type === "session") claim(e.id);
          },
        });
        this.#finish(r.sessionId, r.cancelled ? "cancelled" : r.error ? "error" : "done");
      } catch (err) {
        const message = errorMessage(err);
        const hint = err instanceof HarnessError && err.hint ? ` (${err.hint})` : "";
        this.#o.log(`[web] a turn failed: ${message}`);
        if (scope.session) this.#finish(scope.session, "error", message + hint);
        failed(new HarnessError(message, err instanceof HarnessError ? err.hint : ""));
      }
    });
    this.#all.add(running);
    running.done.finally(() => this.#all.delete(running));
    if (session) this.#running.set(session, running);
    return started;
  }

  #finish(session: string, outcome: "done" | "cancelled" | "error", error?: string): void {
    this.#running.delete(session);
    this.#ended.set(session, { outcome, error });
    for (const a of [...this.#asks.values()]) {
      if (a.session === session) this.#settle(a.id, "never");
    }
    this.#changed(session);
  }

  /** Cancels the turn running in `session`; false when none runs there. */
  cancel(session: string): boolean {
    const r = this.#running.get(session);
    if (!r) return false;
    r.controller.abort(new HarnessError("cancelled from the browser"));
    for (const a of [...this.#asks.values()]) {
      if (a.session === session) this.#settle(a.id, "never");
    }
    return true;
  }

  /** True when a turn started here runs in `session`. */
  running(session: string): boolean {
    return this.#running.has(session);
  }

  /** What the browser shows about `session`. */
  state(session: string): TurnState {
    const ended = this.#ended.get(session);
    return {
      running: this.#running.has(session),
      ...(ended ? { outcome: ended.outcome } : {}),
      ...(ended?.error ? { error: ended.error } : {}),
      asks: this.asks(session).map(({ id, question }) => ({ id, question })),
    };
  }

  /** Questions waiting in `session` (and those whose session cannot be told); all without one. */
  asks(session?: string): PendingAsk[] {
    return [...this.#asks.values()]
      .filter((a) => session === undefined || a.session === session || a.session === "")
      .map(({ id, session, question }) => ({ id, session, question }));
  }

  /** The effect floor's asker: the question goes to the browser, the answer comes back. */
  readonly asker = (question: string): Promise<Answer> => {
    const scope = this.#scope.getStore();
    if (this.#closed || scope?.signal.aborted) return Promise.resolve("never");
    const id = crypto.randomUUID();
    const session = scope?.session ?? "";
    return new Promise<Answer>((resolve) => {
      this.#asks.set(id, { id, session, question: questionText(question), resolve });
      scope?.signal.addEventListener("abort", () => this.#settle(id, "never"), { once: true });
      this.#changed(session);
    });
  };

  /** Answers question `id`; false when it is not waiting (answered, cancelled, unknown). */
  answer(id: string, answer: Answer): boolean {
    return this.#settle(id, answer);
  }

  #settle(id: string, answer: Answer): boolean {
    const a = this.#asks.get(id);
    if (!a) return false;
    this.#asks.delete(id);
    a.resolve(answer);
    this.#changed(a.session);
    return true;
  }

  /** Calls `fn` with the session whose state changed; returns the unsubscriber. */
  subscribe(fn: (session: string) => void): () => void {
    this.#listeners.add(fn);
    return () => this.#listeners.delete(fn);
  }

  #changed(session: string): void {
    for (const fn of [...this.#listeners]) {
      try {
        fn(session);
      } catch (err) {
        this.#o.log(`[web] a listener failed: ${errorMessage(err)}`);
      }
    }
  }

  /** Cancels every turn, denies every question and waits for the turns to end. */
  async close(): Promise<void> {
    this.#closed = true;
    for (const id of [...this.#asks.keys()]) this.#settle(id, "never");
    const all = [...this.#all];
    for (const r of all) r.controller.abort(new HarnessError("hs web is stopping"));
    await Promise.allSettled(all.map((r) => r.done));
  }
}
