/**
 * How sequences, `let`, `if` and `set!` resume after a {@link Capture} passed through them: the
 * heap frames (KF) they push, shared by the tree nodes (compiler.ts) and the compiled bodies
 * (jit.ts), so both leave the same continuation behind.
 *
 * @module
 */
import { Capture, type Frame, KF, type Node } from "../base/mod.ts";

/** Runs `nodes[start..]` of a sequence on `f`; the last one's value is the sequence's. */
export function seqFrom(f: Frame, nodes: Node[], start: number): unknown {
  const last = nodes.length - 1;
  let i = start;
  try {
    for (; i < last; i++) nodes[i](f);
  } catch (e) {
    throw seqErr(e, f, nodes, i);
  }
  return nodes[last](f);
}

/** An exception while `nodes[i]` of a sequence ran: a capture resumes with `nodes[i + 1]`. */
export function seqErr(e: unknown, f: Frame, nodes: Node[], i: number): unknown {
  if (e instanceof Capture) e.frames.push(new KF(() => seqFrom(f, nodes, i + 1)));
  return e;
}

/** Binds `slots[start..]` of a `let` to their inits on `f`, then runs `body`. */
export function letFrom(
  f: Frame,
  slots: number[],
  inits: Node[],
  start: number,
  body: Node,
): unknown {
  let i = start;
  try {
    for (; i < inits.length; i++) f[slots[i]] = inits[i](f);
  } catch (e) {
    throw letErr(e, f, slots, inits, i, body);
  }
  return body(f);
}

/** An exception while `inits[i]` of a `let` ran: a capture resumes by binding its value. */
export function letErr(
  e: unknown,
  f: Frame,
  slots: number[],
  inits: Node[],
  i: number,
  body: Node,
): unknown {
  if (e instanceof Capture) {
    e.frames.push(
      new KF((v) => {
        f[slots[i]] = v;
        return letFrom(f, slots, inits, i + 1, body);
      }),
    );
  }
  return e;
}

/** The heap frame of an `if` whose test was interrupted: the value picks the branch. */
export function ifK(f: Frame, thenN: Node, elseN: Node): KF {
  return new KF((v) => v !== false ? thenN(f) : elseN(f));
}

/** An exception while an `if`'s test ran. */
export function ifErr(e: unknown, f: Frame, thenN: Node, elseN: Node): unknown {
  if (e instanceof Capture) e.frames.push(ifK(f, thenN, elseN));
  return e;
}

/** An exception while the value of a `set!` (or definition) was computed. */
export function setErr(e: unknown, f: Frame, set: (f: Frame, v: unknown) => void): unknown {
  if (e instanceof Capture) {
    e.frames.push(
      new KF((v) => {
        set(f, v);
        return undefined;
      }),
    );
  }
  return e;
}
