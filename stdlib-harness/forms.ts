/**
 * The registration forms of a behavior program (seed 000 §3) and the rules
 * they are checked by at load time: which keywords each form takes, which it
 * requires, and what each records. Every violation is a {@link LoadError}
 * with the form's source location.
 *
 * @module
 */
import { Keyword, listToArray, MString, Sym } from "../scheme/mod.ts";
import { isSchema, type SchemaNode } from "./schema.ts";

/** Where guards and hooks attach. */
export const POINTS = ["read", "write", "shell", "edit", "mcp", "agent", "turn", "round"] as const;
/** One attachment point. */
export type BehaviorPoint = typeof POINTS[number];

/** Every form that registers (they are allowed only at the top level of a program). */
export const REGISTRATION_FORMS: ReadonlySet<string> = new Set([
  "define/tool",
  "define/reducer",
  "define/method",
  "subscribe",
  "require",
  "validate/configuration",
  ...POINTS.map((p) => `guard/${p}`),
  ...POINTS.map((p) => `hook/${p}`),
]);

/** A load error: what is wrong, where. */
export class LoadError extends Error {
  /** `file:line:col` of the offending form (or the file when unknown). */
  readonly loc: string;
  /** Creates a load error at a location. */
  constructor(message: string, loc: string) {
    super(`${loc}: ${message}`);
    this.name = "LoadError";
    this.loc = loc;
  }
}

/** A guard as declared. */
export interface GuardDecl {
  id: string;
  point: BehaviorPoint;
  /** Globs over the point's subject (path, command, tool name); empty = every call. */
  match: string[];
  capabilities: string[];
  contract?: "redaction" | "summarize";
  reentrantDepth: number;
  /** The Scheme procedure `(lambda (raw invoke) …)`. */
  middleware: unknown;
  loc: string;
}

/** A hook as declared. */
export interface HookDecl {
  id: string;
  point: BehaviorPoint;
  match: string[];
  pre?: unknown;
  post?: unknown;
  postFail?: unknown;
  loc: string;
}

/** A tool, a procedure, or both. */
export interface ToolDecl {
  name: string;
  kind: "procedure" | "tool" | "both";
  description?: string;
  input?: SchemaNode;
  handler: unknown;
  loc: string;
}

/** The program's reducer. */
export interface ReducerDecl {
  initial: unknown;
  reduce: unknown;
  hostOnly?: unknown;
  loc: string;
}

/** A method of the program's state. */
export interface MethodDecl {
  name: string;
  kind: "query" | "command";
  input: SchemaNode;
  output: SchemaNode;
  handler: unknown;
  loc: string;
}

/** A named outbound subscriber. */
export interface SubscriberDecl {
  name: string;
  /** Event types it receives (empty: every outbound event). */
  events: string[];
  handler: unknown;
  loc: string;
}

/** Everything a program registered. */
export interface Registrations {
  guards: GuardDecl[];
  hooks: HookDecl[];
  tools: ToolDecl[];
  reducer?: ReducerDecl;
  methods: MethodDecl[];
  subscribers: SubscriberDecl[];
  /** `validate/configuration` predicates, in order. */
  validators: unknown[];
}

/** An empty set of registrations. */
export function emptyRegistrations(): Registrations {
  return { guards: [], hooks: [], tools: [], methods: [], subscribers: [], validators: [] };
}

/** The text of a string, symbol or keyword argument. */
export function nameOf(v: unknown): string | undefined {
  if (typeof v === "string") return v;
  if (v instanceof MString) return v.s;
  if (v instanceof Sym || v instanceof Keyword) return v.name;
  return undefined;
}

/** Strings of a list or vector of names (or a single name). */
export function names(v: unknown): string[] | undefined {
  const one = nameOf(v);
  if (one !== undefined) return [one];
  const items = Array.isArray(v) ? v : (() => {
    try {
      return listToArray(v);
    } catch {
      return undefined;
    }
  })();
  if (!items) return undefined;
  const out: string[] = [];
  for (const x of items) {
    const n = nameOf(x);
    if (n === undefined) return undefined;
    out.push(n);
  }
  return out;
}

/** What `:short-circuit`, in any form and as a capability, is told (seed 000 §3). */
export const NO_SHORT_CIRCUIT = "there is no short-circuit: only the core originates success " +
  '(a guard that does not invoke returns (refuse "…"); one that invokes returns its result)';

/**
 * Splits `(:k v :k2 v2 …)` into a keyword map, checking every keyword against those the
 * form accepts. `explain(k)` may say why a keyword does not belong (e.g. a hook keyword on
 * a guard).
 */
export function keywordArgs(
  form: string,
  args: unknown[],
  allowed: readonly string[],
  explain: (k: string) => string | undefined = () => undefined,
): Map<string, unknown> {
  const out = new Map<string, unknown>();
  for (let i = 0; i < args.length; i += 2) {
    const k = args[i];
    if (!(k instanceof Keyword)) {
      throw new TypeError(`${form}: expected a keyword, got ${describe(k)}`);
    }
    if (k.name === "short-circuit") throw new TypeError(`${form}: ${NO_SHORT_CIRCUIT}`);
    if (!allowed.includes(k.name)) {
      throw new TypeError(
        explain(k.name) ??
          `${form}: unknown keyword :${k.name} (it takes ${allowed.map((a) => `:${a}`).join(" ")})`,
      );
    }
    if (i + 1 >= args.length) throw new TypeError(`${form}: :${k.name} has no value`);
    if (out.has(k.name)) throw new TypeError(`${form}: :${k.name} is given twice`);
    out.set(k.name, args[i + 1]);
  }
  return out;
}

function describe(v: unknown): string {
  if (v instanceof Sym) return `the symbol ${v.name}`;
  if (typeof v === "string" || v instanceof MString) return "a string";
  return typeof v;
}

const GUARD_KEYS = ["id", "match", "capabilities", "contract", "middleware", "reentrant-depth"];
const HOOK_KEYS = ["id", "match", "pre", "post", "post-fail"];

/** Parses `guard/<point>` arguments. */
export function parseGuard(
  point: BehaviorPoint,
  args: unknown[],
  isProcedure: (v: unknown) => boolean,
  loc: string,
  seq: number,
): GuardDecl {
  const form = `guard/${point}`;
  const o = keywordArgs(
    form,
    args,
    GUARD_KEYS,
    (k) =>
      HOOK_KEYS.includes(k) && k !== "id" && k !== "match"
        ? `${form}: :${k} is a hook keyword; a guard has :middleware (use hook/${point} for :${k})`
        : undefined,
  );
  const middleware = o.get("middleware");
  if (middleware === undefined) throw new TypeError(`${form}: :middleware is required`);
  if (!isProcedure(middleware)) throw new TypeError(`${form}: :middleware must be a procedure`);
  const match = o.has("match") ? names(o.get("match")) : [];
  if (match === undefined) throw new TypeError(`${form}: :match must be a glob or a list of globs`);
  if ((point === "read" || point === "write") && match.length === 0) {
    throw new TypeError(`${form} requires matchers: give :match with the paths it guards`);
  }
  const capabilities = o.has("capabilities") ? names(o.get("capabilities")) : [];
  if (capabilities === undefined) {
    throw new TypeError(`${form}: :capabilities must be a symbol or a list of symbols`);
  }
  for (const c of capabilities) {
    if (c === "short-circuit") {
      throw new TypeError(`${form}: ${NO_SHORT_CIRCUIT} ('short-circuit is no capability)`);
    }
    if (c !== "replace") throw new TypeError(`${form}: unknown capability '${c} (known: replace)`);
  }
  const contract = o.has("contract") ? nameOf(o.get("contract")) : undefined;
  if (contract !== undefined && contract !== "redaction" && contract !== "summarize") {
    throw new TypeError(`${form}: :contract must be 'redaction or 'summarize`);
  }
  if (capabilities.includes("replace") && !contract) {
    throw new TypeError(`${form}: the replace capability needs :contract 'redaction or 'summarize`);
  }
  const depth = o.has("reentrant-depth") ? o.get("reentrant-depth") : 0;
  if (typeof depth !== "number" || !Number.isInteger(depth) || depth < 0) {
    throw new TypeError(`${form}: :reentrant-depth must be a nonnegative integer`);
  }
  const id = o.has("id") ? nameOf(o.get("id")) : `${form}#${seq}`;
  if (!id) throw new TypeError(`${form}: :id must be a string or a symbol`);
  return {
    id,
    point,
    match,
    capabilities,
    contract: contract as GuardDecl["contract"],
    reentrantDepth: depth,
    middleware,
    loc,
  };
}

/** Parses `hook/<point>` arguments. */
export function parseHook(
  point: BehaviorPoint,
  args: unknown[],
  isProcedure: (v: unknown) => boolean,
  loc: string,
  seq: number,
): HookDecl {
  const form = `hook/${point}`;
  const o = keywordArgs(
    form,
    args,
    HOOK_KEYS,
    (k) =>
      GUARD_KEYS.includes(k)
        ? `${form}: :${k} belongs to a guard; a hook has :pre, :post and :post-fail (use guard/${point})`
        : undefined,
  );
  const fns: Record<string, unknown> = {};
  for (const k of ["pre", "post", "post-fail"]) {
    if (!o.has(k)) continue;
    if (!isProcedure(o.get(k))) throw new TypeError(`${form}: :${k} must be a procedure`);
    fns[k] = o.get(k);
  }
  if (Object.keys(fns).length === 0) {
    throw new TypeError(`${form}: give at least one of :pre, :post, :post-fail`);
  }
  const match = o.has("match") ? names(o.get("match")) : [];
  if (match === undefined) throw new TypeError(`${form}: :match must be a glob or a list of globs`);
  const id = o.has("id") ? nameOf(o.get("id")) : `${form}#${seq}`;
  if (!id) throw new TypeError(`${form}: :id must be a string or a symbol`);
  return { id, point, match, pre: fns.pre, post: fns.post, postFail: fns["post-fail"], loc };
}

/** Parses `(define/tool 'name :kind … :description … :input … :handler …)`. */
export function parseTool(
  args: unknown[],
  isProcedure: (v: unknown) => boolean,
  loc: string,
): ToolDecl {
  const name = nameOf(args[0]);
  if (!name) throw new TypeError("define/tool: the first argument is the name ('name)");
  const o = keywordArgs("define/tool", args.slice(1), ["kind", "description", "input", "handler"]);
  const kind = (o.has("kind") ? nameOf(o.get("kind")) : "tool") ?? "";
  if (kind !== "procedure" && kind !== "tool" && kind !== "both") {
    throw new TypeError("define/tool: :kind must be 'procedure, 'tool or 'both");
  }
  const handler = o.get("handler");
  if (!isProcedure(handler)) throw new TypeError("define/tool: :handler must be a procedure");
  const description = o.has("description") ? nameOf(o.get("description")) : undefined;
  const input = o.get("input");
  if (input !== undefined && !isSchema(input)) {
    throw new TypeError("define/tool: :input must be a schema (z/object …)");
  }
  if (kind !== "procedure" && (!description || !input)) {
    throw new TypeError(`define/tool: a '${kind} needs :description and :input`);
  }
  if (!/^[A-Za-z][A-Za-z0-9_-]*$/.test(name) && kind !== "procedure") {
    throw new TypeError(`define/tool: "${name}" is not a valid tool name`);
  }
  return { name, kind, description, input: input as SchemaNode | undefined, handler, loc };
}

/** Parses `(define/reducer :initial … :reduce … :host-only …)`. */
export function parseReducer(
  args: unknown[],
  isProcedure: (v: unknown) => boolean,
  loc: string,
): ReducerDecl {
  const o = keywordArgs("define/reducer", args, ["initial", "reduce", "host-only"]);
  for (const k of ["initial", "reduce"]) {
    if (!o.has(k)) throw new TypeError(`define/reducer: :${k} is required`);
  }
  for (const [k, v] of o) {
    if (!isProcedure(v)) throw new TypeError(`define/reducer: :${k} must be a procedure`);
  }
  return { initial: o.get("initial"), reduce: o.get("reduce"), hostOnly: o.get("host-only"), loc };
}

/** Parses `(define/method 'name :kind … :input … :output … :handler …)`. */
export function parseMethod(
  args: unknown[],
  isProcedure: (v: unknown) => boolean,
  loc: string,
): MethodDecl {
  const name = nameOf(args[0]);
  if (!name) throw new TypeError("define/method: the first argument is the name ('name)");
  const o = keywordArgs("define/method", args.slice(1), ["kind", "input", "output", "handler"]);
  const kind = nameOf(o.get("kind"));
  if (kind !== "query" && kind !== "command") {
    throw new TypeError("define/method: :kind must be 'query or 'command");
  }
  for (const k of ["input", "output"]) {
    if (!isSchema(o.get(k))) throw new TypeError(`define/method: :${k} must be a schema`);
  }
  if (!isProcedure(o.get("handler"))) {
    throw new TypeError("define/method: :handler must be a procedure");
  }
  return {
    name,
    kind,
    input: o.get("input") as SchemaNode,
    output: o.get("output") as SchemaNode,
    handler: o.get("handler"),
    loc,
  };
}

/** Parses `(subscribe 'name [:events '(type …)] :handler …)`. */
export function parseSubscriber(
  args: unknown[],
  isProcedure: (v: unknown) => boolean,
  loc: string,
): SubscriberDecl {
  const name = nameOf(args[0]);
  if (!name) throw new TypeError("subscribe: the first argument is the name ('name)");
  const o = keywordArgs("subscribe", args.slice(1), ["events", "handler"]);
  if (!isProcedure(o.get("handler"))) {
    throw new TypeError("subscribe: :handler must be a procedure");
  }
  const events = o.has("events") ? names(o.get("events")) : [];
  if (events === undefined) {
    throw new TypeError("subscribe: :events must be an event type or a list of them");
  }
  return { name, events, handler: o.get("handler"), loc };
}
