/**
 * One behavior state (seed 000 §5): a reducer over a log of actions, and the
 * methods that are its only admission path.
 *
 * `call` admits a method call: the grant (owner and method list pinned by the
 * host; arguments cannot widen it), the ABI revision, the input schema; a
 * query runs against the current state and cannot propose; a command's
 * proposals are checked (`:host-only` actions need host authority — a method
 * never has it), reduced (purely) and appended as one entry against the
 * revision the command observed: a stale revision does not overwrite. The
 * same call id with the same input returns the recorded result without
 * appending again; a different input on that id is an error.
 *
 * Core knows nothing of Scheme: a {@link StateModule} (supplied by
 * stdlib-harness) runs the reducer and the handlers.
 *
 * @module
 */
import { HarnessError, type Json } from "../base/mod.ts";
import { isoSeconds, type LogEntry, StaleLogError, type StateLog } from "../session/mod.ts";

/** The method-call protocol revision this host speaks. */
export const METHOD_ABI = 1;

/** Where a state's log lives: on the session, in a project, for everyone, in memory. */
export type StateScope = "session" | "project" | "global" | "private";

/** Who proposes: a method (any caller) or the host itself (the person at the terminal). */
export type Authority = "method" | "host";

/** A method as the host sees it. */
export interface MethodSpec {
  /** The method's name. */
  name: string;
  /** A query only reads; a command may propose actions. */
  kind: "query" | "command";
}

/** A loaded state module: reducer and methods (implemented by stdlib-harness). */
export interface StateModule {
  /** The module's methods by name. */
  readonly methods: ReadonlyMap<string, MethodSpec>;
  /** `:initial`: the state of an empty log (an opaque value). */
  initial(): unknown;
  /** `:reduce`: the next state (pure; throws when the reducer does I/O or fails). */
  reduce(state: unknown, action: Json): unknown;
  /** `:host-only`: true when the action needs host authority. */
  hostOnly(action: Json): boolean;
  /** Validates a method's input against its `:input` schema; the problem, if any. */
  checkInput(method: string, input: Json): string | undefined;
  /** Validates a method's output against its `:output` schema; the problem, if any. */
  checkOutput(method: string, output: Json): string | undefined;
  /**
   * Runs a method's handler with the observed state. `propose` is given to commands only
   * (a query that proposes fails). `chain` names the states of the call chain.
   */
  run(
    method: string,
    input: Json,
    state: unknown,
    propose: ((action: Json) => void) | undefined,
    chain: ReadonlySet<string>,
  ): Promise<Json>;
  /** The state as JSON (for listings and commands). */
  view(state: unknown): Json;
}

/** What a caller may call: the owner (pack and scope) and the methods, pinned by the host. */
export interface MethodGrant {
  /** The pack that owns the state. */
  pack: string;
  /** The state's scope. */
  scope: StateScope;
  /** The methods granted ("all": every method — the session verb, the state's own program). */
  methods: ReadonlySet<string> | "all";
}

/** One call of a method. */
export interface MethodCall {
  /** The method to call. */
  method: string;
  /** The method's input (checked against its `:input` schema). */
  input: Json;
  /** Makes the call idempotent: the same id with the same input returns the recorded result. */
  callId?: string;
  /** The revision the caller observed (a command against a stale one does not overwrite). */
  revision?: number;
  /** The protocol revision the caller speaks (default {@link METHOD_ABI}). */
  abi?: number;
  /** States already in the call chain (a method cannot call back into its own state). */
  chain?: ReadonlySet<string>;
}

/** An accepted entry, as observers see it. */
export interface StateCommit {
  /** The pack that owns the state. */
  pack: string;
  /** The state's scope. */
  scope: StateScope;
  /** The instance (`<pack>/<scope>[/<key>]`). */
  id: string;
  /** The state's revision after the entry. */
  revision: number;
  /** Who proposed it. */
  by: Authority;
  /** The method that proposed it, if one did. */
  method?: string;
  /** The actions accepted. */
  actions: Json[];
}

/** A call the host refused (the message says why; nothing was appended). */
export class MethodError extends HarnessError {
  /** A refused call. */
  constructor(message: string, hint?: string) {
    super(message, hint);
    this.name = "MethodError";
  }
}

/** JSON with sorted keys (the identity of an input). */
export function canonicalJson(v: Json): string {
  if (v === null || typeof v !== "object") return JSON.stringify(v);
  if (Array.isArray(v)) return `[${v.map(canonicalJson).join(",")}]`;
  return `{${
    Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${canonicalJson(v[k])}`).join(",")
  }}`;
}

/** Identity of one state instance. */
export interface StateLabel {
  /** The pack that owns the state. */
  pack: string;
  /** The state's scope. */
  scope: StateScope;
  /** Session id, project path, "global", or `<pack>/<bot>` for private state. */
  key: string;
}

/** A state: its module, its log, the current state and revision. */
export class StateInstance {
  /** The pack that owns the state. */
  readonly pack: string;
  /** The state's scope. */
  readonly scope: StateScope;
  /** Session id, project path, "global", or `<pack>/<bot>` for private state. */
  readonly key: string;
  /** `<pack>/<scope>/<key>`. */
  readonly id: string;
  #module: StateModule;
  #log: StateLog;
  #state: unknown;
  #calls = new Map<string, { input: string; result: Json }>();
  #queue: Promise<unknown> = Promise.resolve();
  #onCommit?: (c: StateCommit) => void;

  private constructor(
    label: StateLabel,
    module: StateModule,
    log: StateLog,
    onCommit?: (c: StateCommit) => void,
  ) {
    this.pack = label.pack;
    this.scope = label.scope;
    this.key = label.key;
    this.id = `${label.pack}/${label.scope}/${label.key}`;
    this.#module = module;
    this.#log = log;
    this.#onCommit = onCommit;
    this.#state = module.initial();
  }

  /** Opens a state over a log: the reducer folds every entry. */
  static open(
    label: StateLabel,
    module: StateModule,
    log: StateLog,
    onCommit?: (c: StateCommit) => void,
  ): StateInstance {
    const s = new StateInstance(label, module, log, onCommit);
    s.#fold(log.entries, 0);
    return s;
  }

  #fold(entries: readonly LogEntry[], from: number): void {
    let state = this.#state;
    entries.forEach((e, i) => {
      for (const a of (Array.isArray(e.actions) ? e.actions : []) as Json[]) {
        try {
          state = this.#module.reduce(state, a);
        } catch (err) {
          throw new HarnessError(
            `state ${this.id}: entry ${from + i + 1} does not reduce: ${(err as Error).message}`,
            this.#log.dir
              ? `the log is ${this.#log.dir}; fix the reducer or move the log aside`
              : undefined,
          );
        }
      }
      if (typeof e.callId === "string") {
        this.#calls.set(e.callId, {
          input: typeof e.input === "string" ? e.input : canonicalJson(e.input ?? null),
          result: e.result ?? null,
        });
      }
    });
    this.#state = state;
  }

  /** The number of accepted entries. */
  get revision(): number {
    return this.#log.revision;
  }

  /** The methods of the state. */
  get methods(): ReadonlyMap<string, MethodSpec> {
    return this.#module.methods;
  }

  /** Where the log lives (undefined in memory). */
  get dir(): string | undefined {
    return this.#log.dir;
  }

  /** The current state as JSON, with its revision. */
  view(): { revision: number; state: Json } {
    this.#catchUp();
    return { revision: this.revision, state: this.#module.view(this.#state) };
  }

  #catchUp(): void {
    const fresh = this.#log.catchUp();
    if (fresh.length) this.#fold(fresh, this.#log.revision - fresh.length);
  }

  /** Runs `fn` after the calls before it (one call at a time per state). */
  #serial<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.#queue.then(fn, fn);
    this.#queue = run.catch(() => {});
    return run;
  }

  /** Admits one method call (see the module docs); resolves to the method's output. */
  call(grant: MethodGrant, call: MethodCall, authority: Authority = "method"): Promise<Json> {
    if (call.chain?.has(this.id)) {
      return Promise.reject(
        new MethodError(
          `call/method ${this.pack}.${call.method}: a method cannot call back into its own ` +
            `state (${this.id})`,
        ),
      );
    }
    return this.#serial(() => this.#call(grant, call, authority));
  }

  async #call(grant: MethodGrant, call: MethodCall, authority: Authority): Promise<Json> {
    const name = `${this.pack}.${call.method}`;
    if (grant.pack !== this.pack || grant.scope !== this.scope) {
      throw new MethodError(
        `call/method ${name}: the grant is for ${grant.pack} (${grant.scope}), not this state`,
      );
    }
    const abi = call.abi ?? METHOD_ABI;
    if (abi !== METHOD_ABI) {
      throw new MethodError(
        `call/method ${name}: ABI revision ${abi} is not supported (this host speaks ${METHOD_ABI})`,
      );
    }
    const spec = this.#module.methods.get(call.method);
    if (!spec) {
      throw new MethodError(
        `call/method: ${this.pack} (${this.scope}) has no method "${call.method}"`,
        `its methods: ${[...this.#module.methods.keys()].join(", ") || "none"}`,
      );
    }
    if (grant.methods !== "all" && !grant.methods.has(call.method)) {
      throw new MethodError(
        `call/method ${name}: not granted (the binding grants ${
          [...grant.methods].join(", ") || "no method"
        })`,
      );
    }
    const inputProblem = this.#module.checkInput(call.method, call.input);
    if (inputProblem) throw new MethodError(`call/method ${name}: invalid input: ${inputProblem}`);
    this.#catchUp();
    const canonical = canonicalJson(call.input);
    if (spec.kind === "command" && call.callId !== undefined) {
      const seen = this.#calls.get(call.callId);
      if (seen) {
        if (seen.input === canonical) return seen.result;
        throw new MethodError(
          `call/method ${name}: call id "${call.callId}" was already used with a different input`,
        );
      }
    }
    const observed = this.revision;
    if (spec.kind === "command" && call.revision !== undefined && call.revision !== observed) {
      throw new MethodError(
        `call/method ${name}: stale revision ${call.revision} (the state is at ${observed}); ` +
          "nothing was written",
      );
    }
    const proposals: Json[] = [];
    const output = await this.#module.run(
      call.method,
      call.input,
      this.#state,
      spec.kind === "command" ? (a) => proposals.push(a) : undefined,
      new Set([...(call.chain ?? []), this.id]),
    );
    const outputProblem = this.#module.checkOutput(call.method, output);
    if (outputProblem) {
      throw new MethodError(`call/method ${name}: invalid output: ${outputProblem}`);
    }
    if (spec.kind === "query") return output;
    if (proposals.length === 0 && call.callId === undefined) return output;
    this.#commit(observed, proposals, authority, {
      method: call.method,
      callId: call.callId,
      input: canonical,
      result: output,
    });
    return output;
  }

  #commit(
    observed: number,
    actions: Json[],
    authority: Authority,
    meta: { method?: string; callId?: string; input?: string; result?: Json },
  ): void {
    const what = meta.method ? `${this.pack}.${meta.method}` : `${this.pack} (host)`;
    if (authority !== "host") {
      for (const a of actions) {
        let sealed: boolean;
        try {
          sealed = this.#module.hostOnly(a);
        } catch (err) {
          throw new MethodError(`${what}: :host-only failed: ${(err as Error).message}`);
        }
        if (sealed) {
          throw new MethodError(
            `${what}: the action ${JSON.stringify(a)} is host-only: a proposal without host ` +
              "authority (a method's included) is rejected",
          );
        }
      }
    }
    let next = this.#state;
    for (const a of actions) {
      try {
        next = this.#module.reduce(next, a);
      } catch (err) {
        throw new MethodError(
          `${what}: the reducer rejected ${JSON.stringify(a)}: ${(err as Error).message}`,
        );
      }
    }
    const entry: LogEntry = {
      rev: observed + 1,
      at: isoSeconds(),
      by: authority,
      ...(meta.method ? { method: meta.method } : {}),
      ...(meta.callId !== undefined ? { callId: meta.callId, input: meta.input ?? "" } : {}),
      ...(meta.result !== undefined ? { result: meta.result } : {}),
      actions,
    };
    try {
      this.#log.append(entry, observed);
    } catch (err) {
      if (err instanceof StaleLogError) {
        this.#catchUp();
        throw new MethodError(
          `${what}: stale revision ${observed} (another writer moved the state to ${err.diskRevision}); ` +
            "nothing was written",
        );
      }
      throw err;
    }
    this.#state = next;
    if (meta.callId !== undefined) {
      this.#calls.set(meta.callId, { input: meta.input ?? "", result: meta.result ?? null });
    }
    try {
      this.#onCommit?.({
        pack: this.pack,
        scope: this.scope,
        id: this.id,
        revision: this.revision,
        by: authority,
        method: meta.method,
        actions,
      });
    } catch { /* observers fail open */ }
  }

  /**
   * Proposes actions with host authority (the person at the terminal, or the embedding
   * application): `:host-only` actions are accepted. Against `revision` when given.
   */
  proposeAsHost(actions: Json[], revision?: number): Promise<number> {
    return this.#serial(() => {
      this.#catchUp();
      const observed = this.revision;
      if (revision !== undefined && revision !== observed) {
        throw new MethodError(
          `${this.pack}: stale revision ${revision} (the state is at ${observed}); nothing was written`,
        );
      }
      this.#commit(observed, actions, "host", {});
      return Promise.resolve(this.revision);
    });
  }

  /**
   * Rolls the state back to `revision` (session and private states, with their caller).
   * Project and global states refuse: an accepted project entry is never retracted.
   */
  rollback(revision: number): void {
    if (this.scope === "project" || this.scope === "global") {
      throw new HarnessError(
        `state ${this.id} is ${this.scope}-scoped: it refuses the caller's rollback`,
        "project and global logs are never rolled back; propose a new action instead",
      );
    }
    if (revision >= this.revision) return;
    this.#log.truncate(revision);
    this.#state = this.#module.initial();
    this.#calls.clear();
    this.#fold(this.#log.entries, 0);
  }
}
