/**
 * Sandbox accounting: the limits, the mutable state of the running interpreter ({@link R}: fuel,
 * deadline, memory, depth, the shadow stack of call sites, its own symbols), and the checks that
 * charge it (fuel ticks, allocation, work, string and vector lengths).
 *
 * @module
 */
import { Keyword, Sym, sym, symbolTableHooks } from "./types.ts";
import { SchemeLimitError, type TraceFrame, traceHooks } from "./errors.ts";
import type { DynNode, Site } from "./procedures.ts";

/** Sandbox limits (all optional; see docs for defaults). */
export interface Limits {
  /** Maximum procedure calls per evaluation (default 100,000,000). */
  fuel?: number;
  /** Wall-clock budget per evaluation in milliseconds (default 10,000). */
  timeoutMs?: number;
  /** Maximum cells (pairs, vector slots, string chars / 8 ...) allocated per evaluation (default 20,000,000). */
  maxCells?: number;
  /** Maximum string length (default 10,000,000). */
  maxStringLength?: number;
  /** Maximum vector/bytevector length (default 10,000,000). */
  maxVectorLength?: number;
  /** Maximum recursion depth, in Scheme frames (default 100,000). */
  maxDepth?: number;
}

/** Default limits. */
export const DEFAULT_LIMITS: Required<Limits> = {
  fuel: 100_000_000,
  timeoutMs: 10_000,
  maxCells: 20_000_000,
  maxStringLength: 10_000_000,
  maxVectorLength: 10_000_000,
  maxDepth: 100_000,
};

/** Fuel handed out per tick batch: the slow check (deadline, refuel) runs once per batch. */
export const BATCH = 10_000;
/**
 * The nesting of `callBody` below which compiled code runs without probing the JS stack (see
 * the stack discipline in apply.ts).
 */
export const PROBE_FROM = 256;

/**
 * The symbols and keywords an interpreter interned beyond the process-wide static ones (the names
 * of the standard library and those a host makes with {@link sym}). They count against the
 * interpreter's memory limit and are dropped with it.
 */
export class SymbolTable {
  /** Interned symbols by name. */
  readonly syms: Map<string, Sym> = new Map();
  /** Interned keywords by name. */
  readonly keywords: Map<string, Keyword> = new Map();
  /** Returns the symbol named `name` (the static one if it exists). */
  intern(name: string): Sym {
    // local first: a static symbol made later (by a host) must not split an interned name
    let s = this.syms.get(name) ?? symbolTableHooks.staticSym(name);
    if (s === undefined) {
      this.charge(name);
      s = new Sym(name);
      this.syms.set(name, s);
    }
    return s;
  }
  /** Returns the keyword `:name` (the static one if it exists). */
  keyword(name: string): Keyword {
    let k = this.keywords.get(name) ?? symbolTableHooks.staticKeyword(name);
    if (k === undefined) {
      this.charge(name);
      k = new Keyword(name);
      this.keywords.set(name, k);
    }
    return k;
  }
  /** Number of symbols and keywords interned here. */
  get size(): number {
    return this.syms.size + this.keywords.size;
  }
  /** Charges a new entry to the running interpreter's memory if this is its table. */
  private charge(name: string): void {
    // a symbol costs an object, a map entry and its name: 16 cells plus the name's bytes
    if (R.symbols === this) alloc(16 + (name.length >> 3));
  }
}

/** Interns `name` in the running interpreter's symbol table (the static table outside one). */
export function intern(name: string): Sym {
  return R.symbols ? R.symbols.intern(name) : sym(name);
}
/** Interns keyword `:name` in the running interpreter's table. */
export function internKeyword(name: string): Keyword {
  return R.symbols ? R.symbols.keyword(name) : symbolTableHooks.keyword(name);
}

/** Mutable runtime state of one interpreter. */
export class State {
  /** Countdown until the next slow check. */
  tick = BATCH;
  /** Fuel left beyond the current batch. */
  fuel = 0;
  /** Deadline (ms since epoch). */
  deadline = Infinity;
  /** Nesting of callBody on the JS stack. */
  depth = 0;
  /** Depth at which callBody next probes the JS stack (see {@link PROBE_FROM}). */
  probeAt = PROBE_FROM;
  /** Depth of the running driver's base: a run always keeps a few frames of its own. */
  runBase = 0;
  /** Host callbacks currently nested (runs started by `callSync` from a primitive). */
  nesting = 0;
  /** Calls after which a procedure body compiled under this interpreter is compiled to JS (0: never). */
  jitAfter = 0;
  /** Bodies this interpreter compiled to JS so far (see scheme/jit.ts). */
  jitBodies = 0;
  /** Current dynamic state. */
  dyn: DynNode | null = null;
  /** Cells allocated in this evaluation. */
  cells = 0;
  /** Cell limit. */
  cellLimit = DEFAULT_LIMITS.maxCells;
  /** Maximum heap frames. */
  maxFrames = DEFAULT_LIMITS.maxDepth * 2;
  /** Effective limits. */
  limits: Required<Limits> = { ...DEFAULT_LIMITS };
  /** Owner (the interpreter), opaque here. */
  owner: unknown = null;
  /** The interpreter's own symbols (null: intern into the static table). */
  symbols: SymbolTable | null = null;
  /**
   * The shadow stack of active call sites (`sites[0..sp)`, innermost last): call nodes push
   * their site around the call, so an error made anywhere below knows its backtrace without
   * any handler on the way (see {@link traceHooks}).
   */
  sites: Site[] = [];
  /** Top of {@link sites}. */
  sp = 0;

  /** Snapshot of the budget (kept by a suspended evaluation). */
  saveBudget(): { tick: number; fuel: number; deadline: number; cells: number } {
    return { tick: this.tick, fuel: this.fuel, deadline: this.deadline, cells: this.cells };
  }
  /** Restores a budget snapshot. */
  restoreBudget(b: { tick: number; fuel: number; deadline: number; cells: number }): void {
    this.tick = b.tick;
    this.fuel = b.fuel;
    this.deadline = b.deadline;
    this.cells = b.cells;
  }

  /** Resets per-evaluation budgets. */
  reset(limits: Required<Limits>): void {
    this.limits = limits;
    this.fuel = Math.max(0, limits.fuel - BATCH);
    this.tick = Math.min(BATCH, limits.fuel);
    this.deadline = Date.now() + limits.timeoutMs;
    this.cells = 0;
    this.cellLimit = limits.maxCells;
    this.maxFrames = limits.maxDepth * 2;
  }
}

/** The state of the interpreter currently running (set by {@link Run}). */
export let R: State = new State();

traceHooks.snapshot = (): TraceFrame[] => {
  const st = R;
  const out: TraceFrame[] = [];
  for (let i = Math.min(st.sp, st.sites.length) - 1; i >= 0 && out.length < 24; i--) {
    const s = st.sites[i];
    if (s) out.push(s);
  }
  return out;
};
/** Makes `s` the current state. */
export function setState(s: State): void {
  R = s;
}

/** Called when `R.tick` drops below zero: refuels from the budget and checks the deadline. */
export function tickCheck(): void {
  if (Date.now() > R.deadline) {
    R.tick = -1;
    throw new SchemeLimitError("deadline", "time limit exceeded");
  }
  if (R.fuel + R.tick <= 0) {
    R.tick = -1;
    R.fuel = 0;
    throw new SchemeLimitError("fuel", "fuel exhausted");
  }
  // a large charge may have driven tick far below zero: take it out of the remaining fuel
  const owed = R.tick < 0 ? -R.tick : 0;
  R.fuel -= owed;
  if (R.fuel <= 0) {
    R.tick = -1;
    R.fuel = 0;
    throw new SchemeLimitError("fuel", "fuel exhausted");
  }
  const b = Math.min(BATCH, R.fuel);
  R.fuel -= b;
  R.tick = b;
}

/** Checks the deadline now (after an operation whose cost is not known in advance). */
export function checkDeadline(): void {
  if (Date.now() > R.deadline) {
    R.tick = -1;
    throw new SchemeLimitError("deadline", "time limit exceeded");
  }
}

/** Accounts for `n` allocated cells; throws a memory limit error past the limit. */
export function alloc(n: number): void {
  if ((R.cells += n) > R.cellLimit) {
    R.cells = R.cellLimit + 1;
    throw new SchemeLimitError("memory", "allocation limit exceeded");
  }
  if (n > 64) work(n);
}

/**
 * Charges fuel for `n` units of primitive work (one step per 64 units), so long-running
 * primitives (string and list traversals, copies) consume fuel and meet deadline checks.
 */
export function work(n: number): void {
  if ((R.tick -= n >> 6) < 0) tickCheck();
}
/** Checks a requested string length. */
export function checkStringLength(n: number): void {
  if (n > R.limits.maxStringLength) {
    throw new SchemeLimitError("memory", `string too long (${n} > ${R.limits.maxStringLength})`);
  }
  alloc(n >> 3);
}
/** Checks a requested vector length. */
export function checkVectorLength(n: number): void {
  if (n > R.limits.maxVectorLength) {
    throw new SchemeLimitError("memory", `vector too long (${n} > ${R.limits.maxVectorLength})`);
  }
  alloc(n);
}
/** Checks a requested bytevector length (bytes count as 1/8 cell). */
export function checkBytesLength(n: number): void {
  if (n > R.limits.maxVectorLength) {
    throw new SchemeLimitError(
      "memory",
      `bytevector too long (${n} > ${R.limits.maxVectorLength})`,
    );
  }
  alloc(n >> 3);
}
