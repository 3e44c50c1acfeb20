/**
 * The body compiler: a procedure body that has run {@link DEFAULT_JIT_AFTER} times becomes one
 * JavaScript function, generated from the records the tree compiler left beside its nodes
 * (ir.ts). Constants, variables, `if`, sequences, `let`, `set!`, `lambda`, the fast operations and
 * calls are written out inline, so V8 optimizes the body as one function instead of a chain of
 * closures calling closures; any other node is called as it is.
 *
 * The generated code does what the nodes do, in the same order, with the same checks: a fast
 * operation tests its operands and that its operator was not redefined, then falls back to the
 * node's own slow path; every call goes through the same call phase (`invokeN`, `tailInvokeN`,
 * so fuel, depth, stack probes and the shadow stack of call sites are the same); and wherever a
 * node catches a {@link Capture} to leave a heap frame behind, the generated code catches it at
 * the same point and leaves the same frame (resume.ts, `callErr`), which resumes in the tree
 * nodes. So continuations, errors, backtraces and limits cannot tell the two apart.
 *
 * The source is built from fixed templates: the only things written into it are integers the
 * compiler chose (frame slots, indices, small exact integers of the program); everything else —
 * cells, sites, nodes, other constants — is passed in as a value. Identical sources share one
 * generated factory. Each interpreter compiles at most {@link MAX_BODIES} bodies, each at most
 * {@link MAX_NODES} nodes inline (the rest are called as nodes), and each compilation counts
 * against its memory limit like the program's own data.
 *
 * @module
 */
import { apply, applyTail, Closure, type Lambda, NIL, type Node, Pair, R } from "../base/mod.ts";
import {
  callErr,
  type Desc,
  descOf,
  type FastOperand,
  gref,
  ifErr,
  invoke0,
  invoke1,
  invoke2,
  invoke3,
  letErr,
  OPS,
  OPS1,
  seqErr,
  setErr,
  type SimpleOperand,
  tailInvoke0,
  tailInvoke1,
  tailInvoke2,
  tailInvoke3,
} from "../nodes/mod.ts";
import { INLINE_LIST_ENTRIES } from "../primitives/mod.ts";

/** Calls of a procedure after which its body is compiled, unless the interpreter says otherwise. */
export const DEFAULT_JIT_AFTER = 1000;

let defaultAfter = DEFAULT_JIT_AFTER;
/** The `jit` setting of interpreters created without one. */
export function defaultJitAfter(): number {
  return defaultAfter;
}
/**
 * Sets the `jit` setting of interpreters created from now on without one (the test suites run
 * once more with every body compiled at its first call: `setDefaultJitAfter(1)`).
 */
export function setDefaultJitAfter(n: number): void {
  defaultAfter = n;
}

/** What the body compiler did in this process (for tests and benchmarks). */
export const jitStats = {
  /** Bodies compiled. */
  compiled: 0,
  /** Bodies the writer could not write (a bug if it is not 0: every recorded shape is known). */
  failed: 0,
  /** Compiled bodies given back to the tree (see {@link BAIL_AFTER}). */
  bailed: 0,
};
/** Nodes written out inline per body; beyond, nodes are called as they are. */
export const MAX_NODES = 160;
/** Bodies one interpreter compiles at most. */
export const MAX_BODIES = 2000;
/** Generated factories kept for reuse by identical bodies (process-wide). */
const MAX_CACHED = 1000;
/**
 * A compiled body that more than this many exceptions (captures included) passed through, more
 * than one per {@link BAIL_RATIO} calls, goes back to the tree for good. V8 raises the level of
 * optimization of a function when it returns, not when it throws, and unwinding through a frame
 * of unoptimized code costs in proportion to the function's size: a body that a continuation
 * leaves by a throw at every call (a `call/cc` generator's loop) stays in V8's baseline tier,
 * where each throw through it cost ~5 µs instead of ~0.5 µs through the tree's small nodes.
 */
const BAIL_AFTER = 64;
const BAIL_RATIO = 16;
/** Cells a compiled body is charged per character of its source (it stays in memory). */
const CELLS_PER_CHAR = 1 / 8;

/** The helpers the generated code calls, by the names it uses. */
const HELPERS = {
  gref,
  callErr,
  invoke0,
  invoke1,
  invoke2,
  invoke3,
  tailInvoke0,
  tailInvoke1,
  tailInvoke2,
  tailInvoke3,
  ifErr,
  seqErr,
  letErr,
  setErr,
  apply,
  applyTail,
  Closure,
  NIL,
  Pair,
  rt: () => R,
  bail,
};
const HELPER_NAMES = Object.keys(HELPERS);
const HELPER_VALUES = Object.values(HELPERS);

type Factory = (...args: unknown[]) => Node;

/** Gives `lam` its tree body back if `compiled` is still its body (see {@link BAIL_AFTER}). */
function bail(lam: Lambda, compiled: Node, tree: Node): void {
  if (lam.body !== compiled) return;
  lam.body = tree;
  jitStats.bailed++;
}
const factories = new Map<string, Factory>();

/**
 * Makes `lam` compile its body at its `jitAfter`-th call (the running interpreter's setting),
 * which runs compiled: until then its body counts calls and runs the tree.
 */
export function warmUp(lam: Lambda): void {
  const tree = lam.body;
  if (R.jitAfter === 0 || descOf(tree) === undefined) return; // off, or nothing to write out
  let calls = 0;
  lam.body = (f) => {
    const after = R.jitAfter;
    if (++calls >= after && after > 0) {
      const body = compileBody(lam, tree) ?? tree;
      lam.body = body;
      return body(f); // this call runs compiled already
    }
    return tree(f);
  };
}

/**
 * Compiles `lam`'s body `tree` to one JS function, or null when it is not worth it or not
 * allowed. The function gives the body back to the tree once exceptions pass through it often
 * (see {@link BAIL_AFTER}).
 */
export function compileBody(lam: Lambda, tree: Node): Node | null {
  const st = R;
  if (st.jitBodies >= MAX_BODIES) return null;
  let source: string, consts: unknown[];
  try {
    const w = new Writer();
    w.k(lam); // k0
    w.k(tree); // k1
    const body = w.node(tree, RET);
    if (w.inline === 0) return null;
    consts = w.consts;
    const locals = Array.from({ length: w.locals }, (_, i) => `, v${i}`).join("");
    source = [
      '"use strict";',
      consts.length ? `const ${consts.map((_, i) => `k${i} = K[${i}]`).join(", ")};` : "",
      "let calls = 0, caught = 0;",
      "return function body(f) {",
      `let pc = 0${locals};`,
      "calls++;",
      "try {",
      body,
      "} catch (e) {",
      `if (++caught > ${BAIL_AFTER} && caught * ${BAIL_RATIO} > calls) bail(k0, body, k1);`,
      "switch (pc) {",
      w.handlerCases(),
      "}",
      "throw e;",
      "}",
      "};",
    ].join("\n");
  } catch {
    jitStats.failed++; // a shape the writer does not know: the tree stays
    return null;
  }
  const cells = Math.ceil(source.length * CELLS_PER_CHAR);
  if (st.cells + cells > st.cellLimit) return null;
  let factory = factories.get(source);
  if (!factory) {
    try {
      factory = new Function(...HELPER_NAMES, "K", source) as Factory;
    } catch {
      return null;
    }
    if (factories.size < MAX_CACHED) factories.set(source, factory);
  }
  st.cells += cells;
  st.jitBodies++;
  const compiled = factory(...HELPER_VALUES, consts);
  sources.set(compiled, source);
  jitStats.compiled++;
  return compiled;
}

/** Where a written expression's value goes. */
type Out = { k: "ret" } | { k: "to"; v: string } | { k: "drop" };
const RET: Out = { k: "ret" };
const DROP: Out = { k: "drop" };
const MAX_SAFE = "9007199254740991";
/** Locals a compiled body keeps for its handler at most (each is a slot of its JS frame). */
const MAX_LOCALS = 48;

/**
 * A construct waiting while one of its parts is evaluated: what its node does with an exception
 * coming out of that part (given the exception's name), `step` being the part.
 */
interface Pending {
  step: number;
  err: (e: string, step: number) => string;
}

/**
 * Writes the JS of one body. The body has one `try`: before anything that can throw, the code
 * sets `pc` to the chain of constructs waiting at that point, and the handler passes the
 * exception through each one's error function innermost first — what the nested handlers of the
 * tree nodes do one JS frame at a time. (Catching in the same frame over and over is slow in
 * V8's baseline code: a body with 24 nested handlers took 5–10× longer to spill than the tree.)
 */
class Writer {
  /** Values the code refers to, as `k0`, `k1`, … */
  readonly consts: unknown[] = [];
  private readonly index = new Map<unknown, number>();
  /** Nodes written out inline so far. */
  inline = 0;
  /** Function-level locals (read by the handler): `v0`, `v1`, … */
  locals = 0;
  private blockTemps = 0;
  private readonly pending: Pending[] = [];
  /** Handler chains by their code: `pc` values are their index + 1. */
  private readonly chains = new Map<string, number>();

  /** The name of constant `v`. */
  k(v: unknown): string {
    let i = this.index.get(v);
    if (i === undefined) {
      i = this.consts.length;
      this.consts.push(v);
      this.index.set(v, i);
    }
    return `k${i}`;
  }

  /** A function-level local, kept for the handler. */
  private local(): string {
    if (this.locals >= MAX_LOCALS) throw new Full();
    return `v${this.locals++}`;
  }

  /** A block-scoped temporary. */
  private temp(): string {
    return `t${this.blockTemps++}`;
  }

  /** `pc = …;` for a point where the waiting constructs are those of {@link pending} now. */
  private mark(): string {
    if (this.pending.length === 0) return "pc = 0;";
    const code = this.pending.toReversed().map((p) => `e = ${p.err("e", p.step)};`).join(" ");
    let id = this.chains.get(code);
    if (id === undefined) {
      id = this.chains.size + 1;
      this.chains.set(code, id);
    }
    return `pc = ${id};`;
  }

  /** The handler's `switch` cases. */
  handlerCases(): string {
    return [...this.chains].map(([code, id]) => `case ${id}: ${code} break;`).join("\n");
  }

  /** Statement(s) sending `expr` to `out`. */
  private put(out: Out, expr: string): string {
    switch (out.k) {
      case "ret":
        return `return ${expr};`;
      case "to":
        return `${out.v} = ${expr};`;
      case "drop":
        return `${expr};`;
    }
  }

  /** `put`, for an expression that can throw. */
  private putThrowing(out: Out, expr: string): string {
    return `${this.mark()} ${this.put(out, expr)}`;
  }

  /** A literal for `v` if it is safe to write into the source, else its constant's name. */
  private literal(v: unknown): string {
    if (typeof v === "number" && Number.isSafeInteger(v) && !Object.is(v, -0)) return String(v);
    if (v === undefined) return "undefined";
    if (v === true) return "true";
    if (v === false) return "false";
    return this.k(v);
  }

  private frameRef(depth: number, slot: number): string {
    int(depth);
    return `f${"[0]".repeat(depth)}[${int(slot)}]`;
  }

  private simple(s: SimpleOperand): string {
    return s.k === "L0"
      ? this.frameRef(0, s.slot)
      : s.k === "L1"
      ? this.frameRef(1, s.slot)
      : this.literal(s.value);
  }

  /** Evaluates part `node` while `p` waits at `step`. */
  private part(p: Pending, step: number, node: Node, out: Out): string {
    p.step = step;
    return this.node(node, out);
  }

  private wait(p: Pending): Pending {
    this.pending.push(p);
    return p;
  }

  private done(): void {
    this.pending.pop();
  }

  /** Code evaluating `node` into `out`. */
  node(node: Node, out: Out): string {
    const d = descOf(node);
    if (d !== undefined && this.inline < MAX_NODES) {
      const saved = { inline: this.inline, locals: this.locals, pending: this.pending.length };
      try {
        this.inline++;
        return this.desc(d, node, out);
      } catch (e) {
        if (!(e instanceof Full)) throw e;
        // out of locals: this node is called as it is
        this.inline = saved.inline;
        this.locals = saved.locals;
        this.pending.length = saved.pending;
      }
    }
    return this.putThrowing(out, `${this.k(node)}(f)`);
  }

  private desc(d: Desc, node: Node, out: Out): string {
    switch (d.k) {
      case "const":
        return out.k === "drop" ? "" : this.put(out, this.literal(d.value));
      case "local":
        return out.k === "drop" ? "" : this.put(out, this.frameRef(d.depth, d.slot));
      case "global":
        return this.putThrowing(out, `gref(${this.k(d.cell)})`);
      case "closure":
        return this.put(out, `new Closure(${this.k(d.lambda)}, f)`);
      case "if": {
        const c = this.temp();
        const thenK = this.k(d.then), elseK = this.k(d.else);
        this.wait({ step: 0, err: (e) => `ifErr(${e}, f, ${thenK}, ${elseK})` });
        const test = this.node(d.test, { k: "to", v: c });
        this.done();
        return `{ let ${c};
${test}
if (${c} !== false) { ${this.node(d.then, out)} } else { ${this.node(d.else, out)} } }`;
      }
      case "fastIf": {
        const { expr } = opOf(d.op);
        const a = this.temp(), b = this.temp();
        return `{ const ${a} = ${this.simple(d.a)}, ${b} = ${this.simple(d.b)};
if (typeof ${a} === "number" && typeof ${b} === "number" && ${this.k(d.cell)}.value === ${
          this.k(d.prim)
        }) {
if (${expr(a, b)}) { ${this.node(d.then, out)} } else { ${this.node(d.else, out)} }
} else { ${this.putThrowing(out, `${this.k(d.slow)}(f, ${a}, ${b})`)} } }`;
      }
      case "fastIf1": {
        if (!Object.hasOwn(OPS1, d.op)) throw new Error("bad test");
        const a = this.temp();
        return `{ const ${a} = ${this.simple(d.a)};
if (${this.k(d.cell)}.value === ${this.k(d.prim)}) {
if (${OPS1[d.op](a)}) { ${this.node(d.then, out)} } else { ${this.node(d.else, out)} }
} else { ${this.putThrowing(out, `${this.k(d.slow)}(f, ${a})`)} } }`;
      }
      case "fastOp":
        return this.fastOp(d, out);
      case "call":
        return this.call(d, node, out);
      case "primCall":
        return this.primCall(d, out);
      case "weighted": {
        const v = this.temp();
        return `{ let ${v}; rt().depth += ${int(d.w)};
${this.node(d.node, { k: "to", v })}
rt().depth -= ${int(d.w)};
${out.k === "drop" ? "" : this.put(out, v)} }`;
      }
      case "seq": {
        const nodes = this.k(d.nodes);
        const last = d.nodes.length - 1;
        const p = this.wait({ step: 0, err: (e, j) => `seqErr(${e}, f, ${nodes}, ${j})` });
        const steps = d.nodes.slice(0, last).map((n, j) => this.part(p, j, n, DROP));
        this.done();
        return `${steps.join("\n")}\n${this.node(d.nodes[last], out)}`;
      }
      case "let": {
        const v = this.temp();
        const slots = this.k(d.slots), inits = this.k(d.inits), body = this.k(d.body);
        const p = this.wait({
          step: 0,
          err: (e, j) => `letErr(${e}, f, ${slots}, ${inits}, ${j}, ${body})`,
        });
        const steps = d.inits.map((n, j) =>
          `${this.part(p, j, n, { k: "to", v })} f[${int(d.slots[j])}] = ${v};`
        );
        this.done();
        return `{ let ${v};
${steps.join("\n")}
${this.node(d.body, out)} }`;
      }
      case "set": {
        const v = this.temp();
        const set = this.k(d.set);
        this.wait({ step: 0, err: (e) => `setErr(${e}, f, ${set})` });
        const value = this.node(d.value, { k: "to", v });
        this.done();
        return `{ let ${v};
${value}
${this.mark()} ${set}(f, ${v}); ${out.k === "drop" ? "" : this.put(out, "undefined")} }`;
      }
    }
  }

  private operand(s: FastOperand, v: string): string {
    return s.k === "N" ? this.node(s.node, { k: "to", v }) : `${v} = ${this.simple(s)};`;
  }

  private fastOp(d: Extract<Desc, { k: "fastOp" }>, out: Out): string {
    const { expr, check } = opOf(d.op);
    const guarded = d.a.k === "N" || d.b.k === "N";
    // the handler reads the operands of a guarded operation: they live at function level
    const a = guarded ? this.local() : this.temp(), b = guarded ? this.local() : this.temp();
    const r = this.temp();
    const slow = `${this.k(d.slow)}(f, ${a}, ${b})`;
    let operands: string;
    if (guarded) {
      const onErr = this.k(d.onErr);
      const p = this.wait({ step: 1, err: (e, s) => `${onErr}(${e}, f, ${s}, ${a}, ${b})` });
      p.step = 1;
      const first = this.operand(d.a, a);
      p.step = 2;
      const second = this.operand(d.b, b);
      this.done();
      operands = `${first}\n${second}`;
    } else operands = `let ${a}, ${b};\n${this.operand(d.a, a)} ${this.operand(d.b, b)}`;
    return `{ ${operands}
if (typeof ${a} === "number" && typeof ${b} === "number" && ${this.k(d.cell)}.value === ${
      this.k(d.prim)
    }) {
${
      check
        ? `const ${r} = ${expr(a, b)};
if (${r} <= ${MAX_SAFE} && ${r} >= -${MAX_SAFE}) { ${this.put(out, r)} } else { ${
          this.putThrowing(out, slow)
        } }`
        : this.put(out, expr(a, b))
    }
} else { ${this.putThrowing(out, slow)} } }`;
  }

  private call(d: Extract<Desc, { k: "call" }>, node: Node, out: Out): string {
    const n = d.nodes.length - 1;
    if (n > 3) {
      this.inline--;
      return this.putThrowing(out, `${this.k(node)}(f)`);
    }
    if (d.tail && out.k !== "ret") throw new Error("tail call in a value position");
    const fn = this.local();
    const args = Array.from({ length: n }, () => this.local());
    const vals = [fn, ...args].join(", ");
    const nodes = this.k(d.nodes), site = this.k(d.site);
    const p = this.wait({
      step: 0,
      err: (e, s) => `callErr(${e}, f, ${s}, [${vals}], ${nodes}, ${d.tail}, ${site})`,
    });
    const steps = [
      d.gcell
        ? `${this.mark()} ${fn} = gref(${this.k(d.gcell)});`
        : this.part(p, 0, d.nodes[0], { k: "to", v: fn }),
      ...args.map((v, i) => this.part(p, i + 1, d.nodes[i + 1], { k: "to", v })),
    ];
    this.done();
    const call = `${d.tail ? "tailInvoke" : "invoke"}${n}(${[fn, ...args, site].join(", ")})`;
    return `${steps.join("\n")}\n${this.putThrowing(out, call)}`;
  }

  private primCall(d: Extract<Desc, { k: "primCall" }>, out: Out): string {
    const n = d.nodes.length - 1;
    if (n !== 1 && n !== 2) throw new Error("bad primitive call");
    if (d.tail && out.k !== "ret") throw new Error("tail call in a value position");
    const a = this.local(), b = n === 2 ? this.local() : "";
    const v = this.temp(), st = this.temp(), sp = this.temp(), r = this.temp();
    const cell = this.k(d.cell), site = this.k(d.site), nodes = this.k(d.nodes);
    const args = n === 1 ? [a] : [a, b];
    const vals = n === 1 ? `[${cell}.value]` : `[${cell}.value, ${a}, ${b}]`;
    const p = this.wait({
      step: 1,
      err: (e, s) => `callErr(${e}, f, ${s}, ${vals}, ${nodes}, ${d.tail}, ${site})`,
    });
    const operands = args.map((x, i) => this.part(p, i + 1, d.nodes[i + 1], { k: "to", v: x }));
    this.done();
    // a total list primitive (`car` of a pair, `not`, …) is its value: nothing can observe the
    // call, so it needs no call site on the shadow stack; otherwise the call as the node makes it
    const inline = n === 1 ? INLINE_LIST_ENTRIES.get(d.entry) : undefined;
    const fast = inline
      ? `if (${cell}.value === ${this.k(d.prim)}${inline.ok ? ` && ${inline.ok(a)}` : ""}) { ${
        out.k === "drop" ? "" : this.put(out, inline.value(a))
      } } else `
      : "";
    return `${operands.join("\n")}
${fast}
{ const ${v} = ${cell}.value, ${st} = rt(), ${sp} = ${st}.sp;
${st}.sites[${sp}] = ${site}; ${st}.sp = ${sp} + 1;
${this.mark()} const ${r} = ${v} === ${this.k(d.prim)} ? ${this.k(d.entry)}(${args.join(", ")}) : ${
      d.tail ? "applyTail" : "apply"
    }(${v}, [${args.join(", ")}]);
${st}.sp = ${sp};
${out.k === "drop" ? "" : this.put(out, r)} }`;
  }
}

/** Thrown by the writer when a body needs more function-level locals than it may have. */
class Full {}

/** The template of fast operator `op`. */
function opOf(op: string): { expr: (a: string, b: string) => string; check: boolean } {
  if (!Object.hasOwn(OPS, op)) throw new Error("bad operator");
  return OPS[op];
}

/** `n` written into the source, after checking it is an integer. */
function int(n: number): string {
  if (!Number.isSafeInteger(n)) throw new Error("bad integer");
  return String(n);
}

/** The generated source of `lam`'s body if it is compiled now (for tests and debugging). */
export function compiledSource(lam: Lambda): string | undefined {
  return sources.get(lam.body);
}
const sources = new WeakMap<Node, string>();
