/**
 * `z/` schema constructors for behavior authors: Scheme values that the host
 * turns into zod schemas (to validate tool input, method input and output)
 * and into JSON Schema (what the model sees of a tool's input).
 *
 * `z/string`, `z/number`, `z/integer`, `z/boolean`, `z/null` and `z/any` are
 * values; `z/object`, `z/array`, `z/enum`, `z/literal`, `z/optional`,
 * `z/union` and `z/describe` build schemas from others.
 *
 * @module
 */
import { z } from "zod";
import { Dict, Keyword, MString, Sym } from "../scheme/mod.ts";

/** A schema as a behavior program holds it (opaque to Scheme). */
export class SchemaNode {
  /** Wraps a zod schema. */
  constructor(readonly zod: z.ZodType, readonly description = "") {}
}

/** True for a schema value. */
export function isSchema(v: unknown): v is SchemaNode {
  return v instanceof SchemaNode;
}

function name(v: unknown): string | undefined {
  if (typeof v === "string") return v;
  if (v instanceof MString) return v.s;
  if (v instanceof Sym || v instanceof Keyword) return v.name;
  return undefined;
}

function need(proc: string, v: unknown): SchemaNode {
  if (!(v instanceof SchemaNode)) throw new TypeError(`${proc}: expected a z/ schema`);
  return v;
}

function listItems(v: unknown): unknown[] {
  if (Array.isArray(v)) return v;
  const out: unknown[] = [];
  let p = v as { car?: unknown; cdr?: unknown } | null;
  while (p && typeof p === "object" && "car" in p) {
    out.push(p.car);
    p = p.cdr as typeof p;
  }
  return out;
}

/** The `z/` bindings, by Scheme name. */
export function schemaBindings(): Record<string, unknown> {
  const prim = (fn: (...a: unknown[]) => unknown) => fn;
  return {
    "z/string": new SchemaNode(z.string()),
    "z/number": new SchemaNode(z.number()),
    "z/integer": new SchemaNode(z.number().int()),
    "z/boolean": new SchemaNode(z.boolean()),
    "z/null": new SchemaNode(z.null()),
    "z/any": new SchemaNode(z.unknown()),
    "z/object": prim((fields: unknown) => {
      if (!(fields instanceof Dict)) throw new TypeError("z/object: expected a dict of schemas");
      const shape: Record<string, z.ZodType> = {};
      for (const [k, v] of fields.map) shape[k] = need("z/object", v).zod;
      return new SchemaNode(z.object(shape).strict());
    }),
    "z/array": prim((item: unknown) => new SchemaNode(z.array(need("z/array", item).zod))),
    "z/enum": prim((...values: unknown[]) => {
      const items = (values.length === 1 ? listItems(values[0]) : values).map((x) => {
        const n = name(x);
        if (n === undefined) throw new TypeError("z/enum: expected strings or symbols");
        return n;
      });
      if (items.length === 0) throw new TypeError("z/enum: expected at least one value");
      return new SchemaNode(z.enum(items as [string, ...string[]]));
    }),
    "z/literal": prim((value: unknown) => {
      const v = name(value) ?? value;
      if (typeof v !== "string" && typeof v !== "number" && typeof v !== "boolean") {
        throw new TypeError("z/literal: expected a string, symbol, number or boolean");
      }
      return new SchemaNode(z.literal(v));
    }),
    "z/optional": prim((s: unknown) => new SchemaNode(need("z/optional", s).zod.optional())),
    "z/union": prim((...schemas: unknown[]) => {
      const all = schemas.map((s) => need("z/union", s).zod);
      if (all.length < 2) throw new TypeError("z/union: expected two schemas or more");
      return new SchemaNode(z.union(all as [z.ZodType, z.ZodType, ...z.ZodType[]]));
    }),
    "z/describe": prim((s: unknown, text: unknown) => {
      const d = name(text);
      if (d === undefined) throw new TypeError("z/describe: expected a description string");
      return new SchemaNode(need("z/describe", s).zod.describe(d), d);
    }),
  };
}

/** JSON Schema of a schema (the model's view of a tool's input). */
export function toJsonSchema(s: SchemaNode): Record<string, unknown> {
  const out = z.toJSONSchema(s.zod) as Record<string, unknown>;
  delete out.$schema;
  return out;
}

/** Validates JSON against a schema; the first problem as text, or undefined when valid. */
export function problemOf(s: SchemaNode, value: unknown): string | undefined {
  const r = s.zod.safeParse(value);
  if (r.success) return undefined;
  const issue = r.error.issues[0];
  const where = issue.path.length ? issue.path.join(".") + ": " : "";
  return `${where}${issue.message}`;
}
