/**
 * The audit bus (seed 002): every sink gets its own ordered queue (capped at
 * 1,000 pending events, with one warning), a throwing sink — synchronously or
 * not — never blocks the others, never stops receiving, and never changes a
 * decision; closing drains the queues within a bound.
 *
 * Beyond the seed, a sink may be registered **fail closed**: {@link
 * AuditBus.record} then waits until that sink wrote the event, and reports
 * false when it could not (the seam refuses the call).
 *
 * @module
 */
import { type AuditEvent, type AuditSink, settlesWithin } from "../base/mod.ts";

const MAX_PENDING = 1000;

interface Pending {
  event: AuditEvent;
  /** Settles a fail-closed write. */
  done?: (ok: boolean) => void;
}

interface SinkQueue {
  sink: AuditSink;
  failClosed: boolean;
  pending: Pending[];
  running: Promise<void> | undefined;
  /** Resolves when the queue is empty (or never, while a sink hangs). */
  idle: Promise<void>;
  markIdle: () => void;
  warned: boolean;
}

/** How a sink is named in messages: `the audit sink of plugin X` for a plugin's sink. */
function sinkLabel(key: string): string {
  const plugin = key.match(/^plugin:(.+)#sink\d+$/);
  return plugin ? `the audit sink of plugin ${plugin[1]}` : `audit sink ${key}`;
}

/** Fans audit events out to sinks, best effort (or fail closed, per sink). */
export class AuditBus {
  #queues = new Map<string, SinkQueue>();
  #warn: (message: string) => void;
  #enabled: boolean;
  #boundMs: number;

  /**
   * Creates the bus; `warn` reports sink failures, `boundMs` bounds a fail-closed sink (default 5
   * s).
   */
  constructor(opts: { warn: (message: string) => void; enabled?: boolean; boundMs?: number }) {
    this.#warn = opts.warn;
    this.#enabled = opts.enabled ?? true;
    this.#boundMs = opts.boundMs ?? 5000;
  }

  /** Adds a sink under a unique key. */
  add(key: string, sink: AuditSink, opts: { failClosed?: boolean } = {}): void {
    this.#queues.set(key, {
      sink,
      failClosed: opts.failClosed === true,
      pending: [],
      running: undefined,
      idle: Promise.resolve(),
      markIdle: () => {},
      warned: false,
    });
  }

  /** True when some sink is fail closed (decisions then wait for {@link record}). */
  get hasFailClosed(): boolean {
    if (!this.#enabled) return false;
    for (const q of this.#queues.values()) if (q.failClosed) return true;
    return false;
  }

  /**
   * Removes a sink after draining what it already has, waiting at most `timeoutMs`
   * (default: the cleanup bound). A sink that never settles is dropped with a warning.
   */
  async remove(key: string, timeoutMs: number = this.#boundMs): Promise<void> {
    const q = this.#queues.get(key);
    if (!q) return;
    if (!(await settlesWithin(q.idle, timeoutMs))) {
      this.#warn(`audit sink ${key} did not drain within ${timeoutMs} ms; dropped`);
    }
    for (const p of q.pending.splice(0)) p.done?.(false);
    this.#queues.delete(key);
  }

  /** Publishes an event: each sink receives its own snapshot. */
  emit(event: AuditEvent): void {
    if (!this.#enabled) return;
    for (const [key, q] of this.#queues) this.#enqueue(key, q, { event });
  }

  /**
   * Publishes an event and waits for every fail-closed sink to write it (bounded by the
   * cleanup bound); `true` when all of them did, else the reason — which sink failed, fell
   * behind, or did not confirm, and how long the call really waited (a timeout is also logged).
   * Best-effort sinks are not waited for.
   */
  async record(event: AuditEvent): Promise<true | string> {
    if (!this.#enabled) return true;
    const waits: Promise<string | undefined>[] = [];
    const keys: string[] = [];
    for (const [key, q] of this.#queues) {
      if (!q.failClosed) {
        this.#enqueue(key, q, { event });
        continue;
      }
      let done!: (ok: boolean) => void;
      const written = new Promise<boolean>((r) => done = r);
      if (!this.#enqueue(key, q, { event, done })) done(false);
      keys.push(key);
      waits.push(written.then((ok) => ok ? undefined : `${sinkLabel(key)} could not write it`));
    }
    if (waits.length === 0) return true;
    const started = performance.now();
    const settled = new Set<number>();
    waits.forEach((w, i) => w.then(() => settled.add(i)));
    let timer: ReturnType<typeof setTimeout> | undefined;
    const results = await Promise.race([
      Promise.all(waits),
      new Promise<undefined>((r) => timer = setTimeout(() => r(undefined), this.#boundMs)),
    ]);
    clearTimeout(timer);
    if (results) return results.find((r) => r !== undefined) ?? true;
    const waited = Math.round(performance.now() - started);
    const late = keys.filter((_, i) => !settled.has(i)).map(sinkLabel).join(", ");
    const reason = `${late} did not confirm within ${this.#boundMs} ms (waited ${waited} ms)`;
    this.#warn(reason);
    return reason;
  }

  /** Queues one event for one sink; false when the queue is full (the event is dropped). */
  #enqueue(key: string, q: SinkQueue, item: Pending): boolean {
    if (q.pending.length >= MAX_PENDING) {
      if (!q.warned) this.#warn(`audit sink ${key} is ${MAX_PENDING} events behind; dropping`);
      q.warned = true;
      return false;
    }
    q.pending.push({ ...item, event: structuredClone(item.event) });
    if (!q.running) {
      q.idle = new Promise<void>((r) => q.markIdle = r);
      // Set before the drain starts: a sink that throws synchronously finishes the drain
      // before `#drain` returns, and must not leave a stale `running` behind.
      q.running = Promise.resolve().then(() => this.#drain(key, q));
    }
    return true;
  }

  async #drain(key: string, q: SinkQueue): Promise<void> {
    while (q.pending.length > 0) {
      const item = q.pending.shift()!;
      let ok = true;
      try {
        await q.sink(item.event);
      } catch {
        ok = false;
        this.#warn(`audit sink ${key} failed on a ${item.event.type} event`);
      }
      item.done?.(ok);
    }
    q.running = undefined;
    q.markIdle();
  }

  /** Waits until every queue is empty (bounded by `timeoutMs`). */
  async flush(timeoutMs: number = this.#boundMs): Promise<void> {
    await settlesWithin(Promise.all([...this.#queues.values()].map((q) => q.idle)), timeoutMs);
  }
}
