/**
 * The audit bus (seed 002): every sink gets its own ordered queue (capped at
 * 1,000 pending events), a throwing sink never blocks the others nor changes a
 * decision, and closing drains the queues within a bound.
 *
 * @module
 */
import type { AuditEvent, AuditSink } from "../base/mod.ts";

const MAX_PENDING = 1000;

interface SinkQueue {
  sink: AuditSink;
  pending: AuditEvent[];
  running: Promise<void> | undefined;
  warned: boolean;
}

/** Fans audit events out to sinks, best effort. */
export class AuditBus {
  #queues = new Map<string, SinkQueue>();
  #warn: (message: string) => void;
  #enabled: boolean;

  constructor(opts: { warn: (message: string) => void; enabled?: boolean }) {
    this.#warn = opts.warn;
    this.#enabled = opts.enabled ?? true;
  }

  /** Adds a sink under a unique key. */
  add(key: string, sink: AuditSink): void {
    this.#queues.set(key, { sink, pending: [], running: undefined, warned: false });
  }

  /** Removes a sink (after draining what it already has). */
  async remove(key: string): Promise<void> {
    const q = this.#queues.get(key);
    if (!q) return;
    await q.running;
    this.#queues.delete(key);
  }

  /** Publishes an event: each sink receives its own snapshot. */
  emit(event: AuditEvent): void {
    if (!this.#enabled) return;
    for (const [key, q] of this.#queues) {
      if (q.pending.length >= MAX_PENDING) {
        if (!q.warned) this.#warn(`audit sink ${key} is ${MAX_PENDING} events behind; dropping`);
        q.warned = true;
        continue;
      }
      q.pending.push(structuredClone(event));
      if (!q.running) q.running = this.#drain(key, q);
    }
  }

  async #drain(key: string, q: SinkQueue): Promise<void> {
    while (q.pending.length > 0) {
      const e = q.pending.shift()!;
      try {
        await q.sink(e);
      } catch {
        this.#warn(`audit sink ${key} failed on a ${e.type} event`);
      }
    }
    q.running = undefined;
  }

  /** Waits until every queue is empty (bounded by `timeoutMs`). */
  async flush(timeoutMs = 5000): Promise<void> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([
      Promise.all([...this.#queues.values()].map((q) => q.running)),
      new Promise<void>((r) => timer = setTimeout(r, timeoutMs)),
    ]);
    clearTimeout(timer);
  }
}
