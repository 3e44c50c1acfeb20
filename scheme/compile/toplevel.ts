/**
 * The compiler's entry point: a top-level form to a node and the size of its frame. It binds the
 * forms compiled outside the core (special_forms.ts, call_forms.ts) into it.
 *
 * @module
 */
import { type Environment, NIL, type Node, Pair } from "../base/mod.ts";
import { Block, LamScope } from "./syntax.ts";
import { compileBody, type Ctx, forms } from "./compiler.ts";
import { compileLambda, compileSpecial } from "./special_forms.ts";
import { compileCall } from "./call_forms.ts";

forms.special = compileSpecial;
forms.call = compileCall;
forms.lambda = compileLambda;

/** Compiles a top-level form: returns the node and the size of the toplevel frame. */
export function compileToplevel(form: unknown, env: Environment): { node: Node; size: number } {
  const lam = new LamScope(null);
  const block = new Block(null, lam);
  const ctx: Ctx = { env, depth: 0 };
  const node = compileBody(new Pair(form, NIL), block, true, ctx, true);
  return { node, size: lam.size };
}
