/**
 * The behavior runtime of one program's interpreter (seed 000 §5–§6): which
 * kind of code runs now — a callback (guard, hook, tool, subscriber), a
 * method handler, a reducer — and the primitives whose meaning depends on
 * it:
 *
 * - `(state/propose action)`: only in a command's handler (a query cannot
 *   propose), collected and applied by the host after the handler returns;
 * - `(call/method 'binding 'method input [:call-id id] [:revision n] [:abi n])`:
 *   the only admission path to a state, through the bot's bindings;
 * - `(self/notify message)`, `(self/notify 'ambient message)`,
 *   `(self/notify 'activating message)`: a note in the turn the callback runs
 *   in. A method call and an outbound event have no notification destination.
 *
 * Reducing is pure: inside a reducer (and `:initial`, `:host-only`) the three
 * primitives and every output port fail.
 *
 * @module
 */
import type { BehaviorServices, CallbackScope, NoteKind } from "../core/mod.ts";
import {
  fromJson,
  type Interpreter,
  type Json,
  Keyword,
  MString,
  Sym,
  toJson,
} from "../scheme/mod.ts";

/** What runs in the interpreter now. */
export type Frame =
  | { kind: "callback"; scope: CallbackScope }
  | {
    kind: "method";
    /** The command's proposal collector (absent for a query). */
    propose?: (action: Json) => void;
    /** States already in the call chain. */
    chain: ReadonlySet<string>;
  }
  /** A reducer (`:initial`, `:reduce`, `:host-only`): pure. */
  | { kind: "reduce" }
  /** A `validate/configuration` predicate: pure. */
  | { kind: "validate" }
  | { kind: "command" };

/** Why an effectful primitive fails in a pure frame, or undefined when the frame is not pure. */
function impurity(f: Frame | undefined, what: string): string | undefined {
  if (f?.kind === "reduce") return `reducing is pure: no ${what} in a reducer`;
  if (f?.kind === "validate") {
    return `validate/configuration is pure: no ${what} in a configuration predicate (it ` +
      "only looks at the configuration it is given)";
  }
  return undefined;
}

/** The runtime of one program's interpreter. */
export class BehaviorRuntime {
  /** What runs now (undefined while loading). */
  current: Frame | undefined;
  /** The host services (absent: `call/method` and `self/notify` are unavailable). */
  services?: BehaviorServices;

  constructor(services?: BehaviorServices) {
    this.services = services;
  }

  /** Runs `fn` with `frame` current (restored afterwards). */
  async within<T>(frame: Frame, fn: () => Promise<T>): Promise<T> {
    const prev = this.current;
    this.current = frame;
    try {
      return await fn();
    } finally {
      this.current = prev;
    }
  }

  /** Synchronous {@link within}. */
  withinSync<T>(frame: Frame, fn: () => T): T {
    const prev = this.current;
    this.current = frame;
    try {
      return fn();
    } finally {
      this.current = prev;
    }
  }

  /** An output sink that refuses output while a reducer runs (reducing does no I/O). */
  sink(out: ((text: string) => void) | undefined): (text: string) => void {
    return (text) => {
      const impure = impurity(this.current, "I/O (display, write)");
      if (impure) throw new Error(impure);
      out?.(text);
    };
  }
}

function text(v: unknown): string | undefined {
  return typeof v === "string" ? v : v instanceof MString ? v.s : undefined;
}

function name(v: unknown): string | undefined {
  if (v instanceof Sym || v instanceof Keyword) return v.name;
  return text(v);
}

function json(form: string, v: unknown): Json {
  try {
    return toJson(v);
  } catch {
    throw new TypeError(`${form}: the value is not JSON data (dicts, vectors, strings, numbers…)`);
  }
}

/** Installs `state/propose`, `call/method` and `self/notify` into an interpreter. */
export function installRuntime(interp: Interpreter, rt: BehaviorRuntime): void {
  interp.definePrimitive("state/propose", {
    minArgs: 1,
    maxArgs: 1,
    fn: (action: unknown) => {
      const f = rt.current;
      const impure = impurity(f, "state/propose");
      if (impure) throw new Error(impure);
      if (f?.kind !== "method") {
        throw new Error(
          "state/propose outside a command's handler (a program reaches a state through call/method)",
        );
      }
      if (!f.propose) throw new Error("state/propose in a query: a query cannot propose");
      f.propose(json("state/propose", action));
      return true;
    },
  });

  interp.definePrimitive("call/method", {
    minArgs: 3,
    untimed: true, // the called state's handler has its own budget
    fn: (binding: unknown, method: unknown, input: unknown, ...rest: unknown[]) => {
      // checked before anything is awaited: a reducer's synchronous evaluation sees the error
      const f = rt.current;
      const impure = impurity(f, "call/method");
      if (impure) throw new Error(impure);
      if (!f || f.kind === "command" || f.kind === "reduce" || f.kind === "validate") {
        throw new Error("call/method outside a callback (bodies do not run at load)");
      }
      if (!rt.services) throw new Error("call/method: this program has no host services");
      const b = name(binding);
      const m = name(method);
      if (!b) throw new TypeError("call/method: the first argument is the binding ('name)");
      if (!m) throw new TypeError("call/method: the second argument is the method ('name)");
      const opts = new Map<string, unknown>();
      const extra: string[] = [];
      for (let i = 0; i < rest.length; i += 2) {
        const k = rest[i];
        if (!(k instanceof Keyword)) {
          throw new TypeError("call/method: after the input come keyword arguments (:call-id …)");
        }
        if (["call-id", "revision", "abi"].includes(k.name)) opts.set(k.name, rest[i + 1]);
        else extra.push(k.name);
      }
      const callId = opts.has("call-id") ? name(opts.get("call-id")) : undefined;
      const num = (k: string) => {
        const v = opts.get(k);
        if (v === undefined) return undefined;
        if (typeof v !== "number") throw new TypeError(`call/method: :${k} must be an integer`);
        return v;
      };
      const scope: CallbackScope = f.kind === "callback"
        ? f.scope
        : { principal: "", boundary: "round", at: "call", noNotify: "method" };
      const services = rt.services;
      const req = {
        binding: b,
        method: m,
        input: json("call/method", input),
        callId,
        revision: num("revision"),
        abi: num("abi"),
        chain: f.kind === "method" ? f.chain : undefined,
        extra,
      };
      // what ran meanwhile does not change what this callback is
      return services.callMethod(req, scope).then((out) => {
        rt.current = f;
        return fromJson(out);
      }, (err) => {
        rt.current = f;
        throw err;
      });
    },
  });

  interp.definePrimitive("self/notify", {
    minArgs: 1,
    maxArgs: 2,
    fn: (a: unknown, b?: unknown) => {
      const f = rt.current;
      const impure = impurity(f, "self/notify");
      if (impure) throw new Error(impure);
      if (f?.kind === "method") {
        throw new Error("self/notify in a method: a method call has no notification destination");
      }
      if (!f || f.kind === "command" || f.kind === "reduce" || f.kind === "validate") {
        throw new Error("self/notify outside a callback (bodies do not run at load)");
      }
      let kind: NoteKind = "origin";
      let message: string | undefined;
      if (b === undefined) message = text(a);
      else {
        const k = name(a);
        if (k !== "ambient" && k !== "activating") {
          throw new TypeError("self/notify: the kind is 'ambient or 'activating");
        }
        kind = k;
        message = text(b);
      }
      if (message === undefined) throw new TypeError("self/notify: the message is a string");
      if (!rt.services) throw new Error("self/notify: this program has no host services");
      rt.services.notify(kind, message, f.scope);
      return true;
    },
  });
}
