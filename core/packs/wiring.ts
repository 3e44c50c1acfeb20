/**
 * How a bot's program reaches states and runs, handed its inputs: the host services of its
 * callbacks (`call/method` resolved to a receiver with the grant the host pins, `self/notify`
 * to the running turn of its agent), and a state commit fanned out as a `state` event to the
 * runs it concerns.
 *
 * @module
 */
import type { HarnessEvent } from "../base/mod.ts";
import type { BehaviorServices, CallbackScope, MethodRequest, RunRegistry } from "./behavior.ts";
import type { BotState } from "./program.ts";
import { MethodError, type MethodGrant, type StateCommit, type StateInstance } from "./state.ts";
import type { SessionRef, StateHost } from "./states.ts";

/** What a bot's services and receivers are resolved against. */
export interface BotWiring {
  /** The runs in flight (where notes and session states go). */
  runs: RunRegistry;
  /** The packs' states. */
  states: StateHost;
  /** Private states by `<pack>/<bot>`. */
  privateStates: ReadonlyMap<string, StateInstance>;
}

/** The host services of a bot's program. */
export function botServices(b: BotState, w: BotWiring): BehaviorServices {
  const from = `${b.pack.name}/${b.spec.name}`;
  return {
    callMethod: async (req, scope) => {
      const { instance, grant } = await methodReceiver(b, req, scope, w);
      return await instance.call(grant, {
        method: req.method,
        input: req.input,
        callId: req.callId,
        revision: req.revision,
        abi: req.abi,
        chain: req.chain,
      });
    },
    notify: (kind, message, scope) => {
      if (scope.noNotify === "method") {
        throw new Error("self/notify in a method: a method call has no notification destination");
      }
      if (scope.noNotify === "subscriber") {
        throw new Error(
          "self/notify in a subscriber: an outbound event has no notification destination",
        );
      }
      const run = w.runs.find(scope.session, scope.sessionDir);
      if (!run || run.principal !== scope.principal) {
        throw new Error("self/notify: no turn of this agent is running");
      }
      const note = { kind, from, message, boundary: scope.boundary, at: scope.at };
      run.note(note);
      run.emit?.({ type: "note", kind, from, message });
    },
  };
}

/** Resolves a binding of a bot to its receiver and the grant the host pinned. */
export async function methodReceiver(
  b: BotState,
  req: MethodRequest,
  scope: CallbackScope,
  w: BotWiring,
): Promise<{ instance: StateInstance; grant: MethodGrant }> {
  const what = `call/method '${req.binding} '${req.method}`;
  if (req.extra?.length) {
    throw new MethodError(
      `${what}: ${req.extra.map((k) => `:${k}`).join(" ")} — arguments cannot widen the ` +
        "grant or point at a different owner (the host pins the owner and the methods)",
    );
  }
  if (req.binding === "self") {
    const own = await ownState(b, what, scope, w);
    return { instance: own, grant: { pack: own.pack, scope: own.scope, methods: "all" } };
  }
  const binding = b.spec.behavior?.bindings[req.binding];
  if (!binding) {
    const names = Object.keys(b.spec.behavior?.bindings ?? {});
    throw new MethodError(
      `${what}: bot ${b.spec.name} has no binding "${req.binding}"`,
      `its bindings: ${names.join(", ") || "none"} (declare them under behavior.bindings)`,
    );
  }
  const session = binding.scope === "session"
    ? conversation(scope, w, `${what}: a session binding needs a running session`)
    : undefined;
  const instance = await w.states.instance(binding.plugin, binding.scope, session);
  return {
    instance,
    grant: { pack: binding.plugin, scope: binding.scope, methods: new Set(binding.methods) },
  };
}

/** The conversation session of the run a callback runs in (a helper keeps its caller's). */
function conversation(scope: CallbackScope, w: BotWiring, missing: string): SessionRef {
  const session = w.runs.find(scope.session, scope.sessionDir)?.conversation;
  if (!session) throw new MethodError(missing);
  return session;
}

/**
 * A bot program's own state: a named bot's lives at its scope (one per session, project or
 * home: whose state it sees); the foreground bot's is private (in memory).
 */
async function ownState(
  b: BotState,
  what: string,
  scope: CallbackScope,
  w: BotWiring,
): Promise<StateInstance> {
  const module = b.program?.state;
  const at = b.spec.attach === "named" ? b.spec.scope ?? "session" : undefined;
  if (module && at) {
    const session = at === "session"
      ? conversation(scope, w, `${what}: a session-scope bot's state needs a running session`)
      : undefined;
    return await w.states.botState(b.pack.name, b.spec.name, at, module, session);
  }
  const own = w.privateStates.get(`${b.pack.name}/${b.spec.name}`);
  if (!own) throw new MethodError(`${what}: the program declares no reducer of its own`);
  return own;
}

/** Emits a state commit as a `state` event to the runs it concerns (observers fail open). */
export function emitCommit(
  c: StateCommit,
  runs: RunRegistry,
  privateStates: ReadonlyMap<string, StateInstance>,
): void {
  const event: HarnessEvent = {
    type: "state",
    plugin: c.pack,
    scope: c.scope,
    revision: c.revision,
    by: c.by,
    ...(c.method ? { method: c.method } : {}),
  };
  for (const run of runs.all()) {
    if (c.scope === "session" && c.id !== `${c.pack}/session/${run.conversation.id}`) continue;
    if (c.scope === "private" && !privateStates.has(c.id.split("/private/")[1] ?? "")) continue;
    try {
      run.emit?.(event);
    } catch { /* observers fail open */ }
  }
}

/** A `call/method` a bot's program made, as an observer sees it (`hs packs test`). */
export interface MethodCallSeen {
  /** `<pack>/<bot>`. */
  from: string;
  binding: string;
  method: string;
  /** The failure's message, when the call failed. */
  error?: string;
}

/** A program's services whose `call/method` calls are reported to `see` (fail open). */
export function observedServices(
  s: BehaviorServices,
  from: string,
  see?: (m: MethodCallSeen) => void,
): BehaviorServices {
  if (!see) return s;
  const tell = (m: MethodCallSeen) => {
    try {
      see(m);
    } catch { /* observers fail open */ }
  };
  return {
    ...s,
    callMethod: async (req, scope) => {
      const seen = { from, binding: req.binding, method: req.method };
      try {
        const out = await s.callMethod(req, scope);
        tell(seen);
        return out;
      } catch (err) {
        tell({ ...seen, error: (err as Error)?.message ?? String(err) });
        throw err;
      }
    },
  };
}
