/**
 * What a loaded behavior program reaches of the host while a callback runs
 * (seed 000 §5–§6): `call/method` through the bot's bindings, `self/notify`
 * into the turn it runs in; and the runs in flight that notes and
 * session-scope states are routed to.
 *
 * A note goes to the turn of the session the callback runs for: two agents
 * that loaded the same module never share notes, and a worker's note reaches
 * the worker's turn, not its parent's. A helper keeps the conversation
 * session it was given: its session-scope states are its caller's.
 *
 * @module
 */
import type { HarnessEvent, Json } from "../base/mod.ts";
import type { Note, NoteKind } from "../loop/mod.ts";
import type { SessionRef } from "./states.ts";
import type { MethodCall } from "./state.ts";

/** Where a behavior callback runs. */
export interface CallbackScope {
  /** The agent ("main", "bot:<name>", "agent:<session>"). */
  principal: string;
  /** The session id of the run (boundary records and tool calls carry it). */
  session?: string;
  /** The session directory (a tool handler knows it). */
  sessionDir?: string;
  /** The boundary the callback observes. */
  boundary: "turn" | "round";
  /** Its start, its end, or a call inside a round. */
  at: "start" | "end" | "call";
  /** Callbacks without a notification destination. */
  noNotify?: "method" | "subscriber";
}

/** A `call/method` from a program: a {@link MethodCall} addressed through one of its bindings. */
export interface MethodRequest extends MethodCall {
  /** The binding name (`self`: the program's own state). */
  binding: string;
  /** Other keyword arguments the caller gave (they can neither widen nor redirect a grant). */
  extra?: string[];
}

/** The host services of one loaded program. */
export interface BehaviorServices {
  /** `call/method`: admission through the bot's bindings; the method's output. */
  callMethod(req: MethodRequest, scope: CallbackScope): Promise<Json>;
  /** `self/notify`: leaves a note in the turn the callback runs in. */
  notify(kind: NoteKind, message: string, scope: CallbackScope): void;
}

/** A run in flight, as behaviors reach it. */
export interface RunBinding {
  /** The run's own session. */
  session: SessionRef;
  /** The conversation's session (a helper keeps its caller's). */
  conversation: SessionRef;
  /** The agent the run is for ("main", or a bot's or sub-agent's principal). */
  principal: string;
  /** Leaves a note in the run's turn (throws for turn-end activation). */
  note(n: Note): void;
  /** Emits an event of the run (origin notes, state changes). */
  emit?(e: HarnessEvent): void;
}

/** The runs in flight, by session id. */
export class RunRegistry {
  #runs = new Map<string, RunBinding>();

  /** Registers a run; the returned function unregisters it. */
  bind(run: RunBinding): () => void {
    this.#runs.set(run.session.id, run);
    return () => {
      if (this.#runs.get(run.session.id) === run) this.#runs.delete(run.session.id);
    };
  }

  /** The run of a session (by id, or by directory). */
  find(session?: string, dir?: string): RunBinding | undefined {
    if (session) return this.#runs.get(session);
    if (dir) return [...this.#runs.values()].find((r) => r.session.dir === dir);
    return undefined;
  }

  /** Every run in flight. */
  all(): RunBinding[] {
    return [...this.#runs.values()];
  }
}
