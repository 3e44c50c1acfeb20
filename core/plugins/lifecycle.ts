/**
 * The lifecycle bus (seed 002 `ctx.hooks.on(event, handler)`): delivers the
 * loop's boundary events (typed in core/base/lifecycle.ts) to the plugins that
 * subscribed.
 *
 * Dispatch fails open: a handler that throws or rejects is logged without its
 * exception text and the loop goes on; every handler gets its own frozen copy.
 *
 * @module
 */
import { type LifecycleEvent, type LifecycleEvents, type Owner, ownerLabel } from "../base/mod.ts";
import type { OwnedRegistry } from "./registry.ts";

/** A handler of event `E`. */
export type LifecycleHandler<E extends LifecycleEvent> = (
  payload: Readonly<LifecycleEvents[E]>,
) => void | Promise<void>;

/** A subscription as the lifecycle registry holds it. */
export interface LifecycleSubscription {
  /** The event subscribed to. */
  event: LifecycleEvent;
  /** Called with the event's payload. */
  // deno-lint-ignore no-explicit-any
  handler: LifecycleHandler<any>;
}

/** Dispatches lifecycle events to the subscriptions of a registry. */
export class LifecycleBus {
  #registry: OwnedRegistry<LifecycleSubscription>;
  #log: (line: string) => void;
  #pending = new Set<Promise<void>>();

  /** Creates a bus over the subscriptions of `registry`; handler failures go to `log`. */
  constructor(registry: OwnedRegistry<LifecycleSubscription>, log: (line: string) => void) {
    this.#registry = registry;
    this.#log = log;
  }

  /** Calls every handler of `event`; never throws, never waits for a handler. */
  emit<E extends LifecycleEvent>(event: E, payload: LifecycleEvents[E]): void {
    for (const e of this.#registry.entries()) {
      if (e.value.event !== event) continue;
      const copy = Object.freeze(structuredClone(payload));
      try {
        const r = e.value.handler(copy);
        if (r && typeof (r as Promise<void>).then === "function") {
          const p = (r as Promise<void>).then(
            () => {},
            () => this.#failed(e.owner, event),
          ).finally(() => this.#pending.delete(p));
          this.#pending.add(p);
        }
      } catch {
        this.#failed(e.owner, event);
      }
    }
  }

  #failed(owner: Owner, event: string): void {
    this.#log(`[lifecycle] ${ownerLabel(owner)}: ${event} handler failed (ignored)`);
  }

  /** Waits for handlers still running (bounded by `timeoutMs`). */
  async settle(timeoutMs: number): Promise<void> {
    if (this.#pending.size === 0) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([
      Promise.all([...this.#pending]),
      new Promise<void>((r) => timer = setTimeout(r, timeoutMs)),
    ]);
    clearTimeout(timer);
  }
}
