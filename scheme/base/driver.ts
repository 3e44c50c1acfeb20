/**
 * The driver ({@link Run}): runs one evaluation and resumes the heap frames a {@link Capture}
 * collected — after a stack spill, for `call/cc` and reinstated continuations, and after an
 * asynchronous primitive's promise settles; nested runs serve callbacks from primitives.
 *
 * @module
 */
import {
  type SchemeError,
  schemeError,
  SchemeExit,
  SchemeLimitError,
  toSchemeError,
} from "./errors.ts";
import {
  Capture,
  CK,
  Continuation,
  DynKind,
  type DynNode,
  Jump,
  type KF,
  TailCall,
} from "./procedures.ts";
import { alloc, PROBE_FROM, R, type State, tickCheck, work } from "./state.ts";
import { apply, applyTop, callBodyTop, MAX_HOST_NESTING } from "./apply.ts";

/** Winds from the current dynamic state to `to` (running after/before thunks). */
export function windTo(to: DynNode | null): void {
  const from = R.dyn;
  if (from === to) return;
  const fromSet = new Set<DynNode>();
  for (let d = from; d; d = d.parent) fromSet.add(d);
  work(fromSet.size * 64);
  let common: DynNode | null = to;
  while (common && !fromSet.has(common)) common = common.parent;
  for (let d = from; d && d !== common; d = d.parent) {
    R.dyn = d.parent;
    if (d.kind === DynKind.Wind) nested(() => apply((d!.data as unknown[])[1], []));
  }
  const path: DynNode[] = [];
  for (let d = to; d && d !== common; d = d.parent) path.push(d);
  for (let i = path.length - 1; i >= 0; i--) {
    const d = path[i];
    if (d.kind === DynKind.Wind) nested(() => apply((d.data as unknown[])[0], []));
    R.dyn = d;
  }
  R.dyn = to;
}

/** Returned by {@link Run.run} when a host primitive returned a Promise. */
export class Suspend {
  /** The promise to await before calling {@link Run.resume}. */
  constructor(public promise: Promise<unknown>) {}
}

const enum Mode {
  Call,
  Value,
  Error,
}

/** Drives one evaluation: resumes heap frames after captures, implements call/cc and async. */
export class Run {
  private k: KF[] = [];
  private mode = Mode.Call;
  private next: (() => unknown) | null = null;
  private value: unknown = undefined;
  private err: SchemeError | null = null;
  private savedDyn: DynNode | null = null;
  private base: number;
  private baseSp: number;
  /** True once a nested run (a host callback) has returned: its continuations are dead. */
  finished = false;

  /** Creates a run on the current state; nested runs serve callbacks from primitives. */
  constructor(readonly isNested = false) {
    this.base = R.depth;
    this.baseSp = R.sp;
  }

  /** Runs `thunk` to completion, or until it must await a promise. */
  run(thunk: () => unknown): unknown {
    this.mode = Mode.Call;
    this.next = thunk;
    return this.loop();
  }

  /** Resumes after a {@link Suspend} with the promise outcome. */
  resume(ok: boolean, v: unknown): unknown {
    R.dyn = this.savedDyn;
    if (ok) {
      this.mode = Mode.Value;
      this.value = v;
    } else {
      this.mode = Mode.Error;
      this.err = toSchemeError(v);
    }
    return this.loop();
  }

  private loop(): unknown {
    const st = R;
    const savedBase = st.runBase, savedProbe = st.probeAt;
    st.runBase = this.base;
    st.probeAt = this.base + PROBE_FROM;
    try {
      return this.steps(st);
    } finally {
      st.runBase = savedBase;
      st.probeAt = savedProbe;
    }
  }

  private steps(st: State): unknown {
    const k = this.k;
    for (;;) {
      if (this.mode === Mode.Error) {
        const e = this.err!;
        let fr: KF | undefined;
        while ((fr = k.pop()) && !fr.handler);
        if (!fr) {
          st.depth = this.base;
          throw e;
        }
        this.mode = Mode.Call;
        this.next = () => fr!.handler!(e);
      }
      try {
        let v: unknown;
        st.depth = this.base;
        st.sp = this.baseSp;
        if (this.mode === Mode.Call) {
          const t = this.next!;
          this.next = null;
          v = t();
        } else v = this.value;
        for (;;) {
          // a resumed frame in tail position returns a pending tail call: complete it here
          if (v instanceof TailCall) {
            st.depth = this.base;
            v = callBodyTop(v.body, v.frame);
          }
          // a continuation called in tail position: nothing left to unwind. One of this run is
          // reinstated here, as the Reinstate capture below would (without a JS throw, which
          // costs ~1 µs: a generator built on call/cc makes one per step); another run's goes
          // there as a capture.
          if (v instanceof Jump) {
            const kont = v.k;
            if (kont.run !== this) throw new Capture(CK.Reinstate, kont, v.value);
            const value = v.value;
            if (--st.tick < 0) tickCheck();
            k.length = 0;
            st.depth = this.base;
            st.sp = this.baseSp;
            windTo(kont.dyn);
            work(kont.frames.length * 64);
            for (const f of kont.frames) k.push(f);
            v = value;
            continue;
          }
          if (k.length === 0) break;
          st.depth = this.base;
          st.sp = this.baseSp;
          if (--st.tick < 0) tickCheck();
          v = k.pop()!.fn(v);
        }
        return v;
      } catch (e) {
        if (e instanceof Capture) {
          const fs = e.frames;
          if (--st.tick < 0) {
            try {
              tickCheck();
            } catch (lim) {
              k.length = 0;
              this.mode = Mode.Error;
              this.err = lim as SchemeError;
              continue;
            }
          }
          for (let i = fs.length - 1; i >= 0; i--) k.push(fs[i]);
          if (k.length > st.maxFrames) {
            k.length = 0;
            this.mode = Mode.Error;
            this.err = new SchemeLimitError("depth", "recursion depth exceeded");
            continue;
          }
          switch (e.kind) {
            case CK.Spill:
              this.mode = Mode.Call;
              this.next = e.payload as () => unknown;
              break;
            case CK.CallCC: {
              let kont: Continuation;
              try {
                alloc(k.length);
                kont = new Continuation(k.slice(), st.dyn, this);
              } catch (lim) {
                k.length = 0;
                this.mode = Mode.Error;
                this.err = toSchemeError(lim);
                continue;
              }
              const p = e.payload;
              this.mode = Mode.Call;
              this.next = () => applyTop(p, [kont]);
              break;
            }
            case CK.Reinstate: {
              const kont = e.payload as Continuation;
              k.length = 0;
              if (kont.run !== this) {
                if (kont.run.isNested && kont.run.finished) {
                  this.mode = Mode.Error;
                  this.err = schemeError(
                    "error",
                    "cannot re-enter a continuation captured in a host callback that has returned",
                  );
                  continue;
                }
                if (this.isNested) {
                  // the continuation belongs to an outer run: unwind the host frames to it
                  st.depth = this.base;
                  throw e;
                }
              }
              this.mode = Mode.Call;
              this.next = () => {
                windTo(kont.dyn);
                work(kont.frames.length * 64);
                for (const f of kont.frames) k.push(f);
                return e.value;
              };
              break;
            }
            case CK.Await:
              this.savedDyn = st.dyn;
              st.depth = this.base;
              return new Suspend(e.payload as Promise<unknown>);
          }
        } else {
          const se = toSchemeError(e);
          if (se.dyn === undefined) se.dyn = st.dyn;
          if (se instanceof SchemeLimitError || (se instanceof SchemeExit && se.emergency)) {
            k.length = 0;
          }
          this.mode = Mode.Error;
          this.err = se;
        }
      }
    }
  }
}

/** Runs `thunk` synchronously in a nested driver (for callbacks from primitives). */
export function nested(thunk: () => unknown): unknown {
  const st = R;
  const depth = st.depth;
  const sp = st.sp;
  if (st.nesting >= MAX_HOST_NESTING) {
    throw new SchemeLimitError(
      "depth",
      "recursion depth exceeded (host callbacks nested too deep)",
    );
  }
  st.nesting++;
  const run = new Run(true);
  try {
    const r = run.run(thunk);
    if (r instanceof Suspend) {
      r.promise.catch(() => {});
      throw schemeError(
        "error",
        "asynchronous primitive called where only synchronous ones are allowed",
      );
    }
    return r;
  } finally {
    run.finished = true;
    st.nesting--;
    st.depth = depth;
    st.sp = sp;
  }
}
