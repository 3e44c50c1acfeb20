/**
 * A program's reducer and methods as the host's {@link StateModule}: the
 * reducer (with `:initial` and `:host-only`) runs synchronously as a pure
 * function — no output, no `state/propose`, `call/method` or `self/notify` —
 * and each method's handler gets `(input state)`; a command's handler
 * proposes with `state/propose`, a query's cannot. Inputs and outputs cross
 * as JSON, validated by the host against `:input` and `:output`.
 *
 * `stateLoader` loads a pack's `states` module (one reducer and its methods,
 * in its own interpreter).
 *
 * @module
 */
import type { MethodSpec, StateModule, StateModuleLoader } from "../core/mod.ts";
import { fromJson, type Json, toJson, write } from "../scheme/mod.ts";
import type { MethodDecl } from "./forms.ts";
import { type LoadedProgram, loadProgram } from "./program.ts";
import { problemOf } from "./schema.ts";

/** The state module of a loaded program (it must declare a reducer). */
export function stateModuleOf(p: LoadedProgram): StateModule {
  const reducer = p.registrations.reducer;
  if (!reducer) throw new Error(`${p.file} declares no reducer`);
  const interp = p.interpreter;
  const rt = p.runtime;
  const decls = new Map<string, MethodDecl>(p.registrations.methods.map((m) => [m.name, m]));
  const methods = new Map<string, MethodSpec>(
    p.registrations.methods.map((m) => [m.name, { name: m.name, kind: m.kind }]),
  );
  const pure = <T>(fn: () => T): T => rt.withinSync({ kind: "reduce" }, fn);
  const decl = (m: string) => {
    const d = decls.get(m);
    if (!d) throw new Error(`no method ${m}`);
    return d;
  };
  return {
    methods,
    initial: () => pure(() => interp.callSync(reducer.initial)),
    reduce: (state, action) => pure(() => interp.callSync(reducer.reduce, state, fromJson(action))),
    hostOnly: (action) =>
      reducer.hostOnly
        ? pure(() => interp.callSync(reducer.hostOnly, fromJson(action))) !== false
        : false,
    checkInput: (m, input) => problemOf(decl(m).input, input),
    checkOutput: (m, output) => problemOf(decl(m).output, output),
    async run(m, input, state, propose, chain) {
      const out = await rt.within(
        { kind: "method", propose, chain },
        () => interp.call(decl(m).handler, fromJson(input), state),
      );
      try {
        return toJson(out);
      } catch {
        throw new Error(`${m} returned ${write(out)}, which is not JSON data`);
      }
    },
    view(state): Json {
      try {
        return toJson(state);
      } catch {
        return { scheme: write(state) };
      }
    },
  };
}

/** Loads a pack's `states` module. */
export const stateLoader: StateModuleLoader = async (req) => {
  const p = await loadProgram({ file: req.file, root: req.root, log: req.log, kind: "state" });
  return stateModuleOf(p);
};
