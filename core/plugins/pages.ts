/**
 * Pages (seed 002 `ctx.pages.register`): descriptors are validated when they are
 * registered, and served through a typed API ({@link PageService}) that a web UI
 * renders — the plugin never ships frontend code. `read` and `action` handlers
 * run with the host's signal (aborted when the plugin stops or the caller gives
 * up); what they return must be JSON; their exception text never reaches the
 * caller (it may hold secrets).
 *
 * @module
 */
import { z } from "zod";
import { HarnessError, type Json, type Owner, ownerLabel } from "../base/mod.ts";
import type { OwnedRegistry } from "./registry.ts";
import type { PageAction, PageDefinition } from "./types.ts";

const pageSchema = z.object({
  id: z.string().regex(/^[a-z0-9][a-z0-9._-]*$/, "a page id is lowercase letters, digits, . _ -"),
  title: z.string().min(1, "a page needs a title").max(200),
  description: z.string().max(500).optional(),
  actions: z.array(z.object({
    name: z.string().regex(/^[a-z0-9_-]+$/, "an action name is lowercase letters, digits, _ -"),
    label: z.string().min(1),
  })).optional(),
  read: z.custom<PageDefinition["read"]>((v) => typeof v === "function", "read must be a function"),
  action: z.custom<PageDefinition["action"]>((v) => typeof v === "function").optional(),
});

/** Validates a page descriptor; throws a HarnessError naming the problem. */
export function validatePage(page: unknown): PageDefinition {
  const r = pageSchema.safeParse(page);
  if (!r.success) {
    const issue = r.error.issues[0];
    throw new HarnessError(`invalid page: ${issue.path.join(".") || "(page)"}: ${issue.message}`);
  }
  const p = page as PageDefinition;
  if ((p.actions?.length ?? 0) > 0 && !p.action) {
    throw new HarnessError(`invalid page "${p.id}": it lists actions but has no action()`);
  }
  const names = new Set<string>();
  for (const a of p.actions ?? []) {
    if (names.has(a.name)) throw new HarnessError(`page "${p.id}" lists action "${a.name}" twice`);
    names.add(a.name);
  }
  return p;
}

/** A page as listed to a UI. */
export interface PageInfo {
  /** The page's id. */
  id: string;
  /** The page's title. */
  title: string;
  /** One line for listings. */
  description?: string;
  /** The actions the page offers. */
  actions: PageAction[];
  /** Who registered it (`plugin:<id>`, `builtin:<id>`). */
  owner: string;
}

/** Serves registered pages. */
export class PageService {
  #registry: OwnedRegistry<PageDefinition>;
  #signalOf: (owner: Owner) => AbortSignal;

  /** Creates the service; `signalOf` gives the signal of a page's owner. */
  constructor(registry: OwnedRegistry<PageDefinition>, signalOf: (owner: Owner) => AbortSignal) {
    this.#registry = registry;
    this.#signalOf = signalOf;
  }

  /** Every page, in registration order. */
  list(): PageInfo[] {
    return this.#registry.entries().map((e) => ({
      id: e.value.id,
      title: e.value.title,
      description: e.value.description,
      actions: (e.value.actions ?? []).map((a) => ({ ...a })),
      owner: ownerLabel(e.owner),
    }));
  }

  /** The data of page `id`. */
  async read(id: string, signal?: AbortSignal): Promise<Json> {
    const { page, ctx } = this.#open(id, signal);
    return await this.#call(id, "read", () => page.read(ctx));
  }

  /** Performs action `name` of page `id`. */
  async action(id: string, name: string, args: Json = {}, signal?: AbortSignal): Promise<Json> {
    const { page, ctx } = this.#open(id, signal);
    if (!page.action || !(page.actions ?? []).some((a) => a.name === name)) {
      throw new HarnessError(`page "${id}" has no action "${name}"`);
    }
    const copy = structuredClone(args);
    return await this.#call(id, name, () => page.action!(name, copy, ctx));
  }

  #open(id: string, signal?: AbortSignal) {
    const e = this.#registry.entry(id);
    if (!e) throw new HarnessError(`no page "${id}"`, "list them with harness.admin.pages.list()");
    const host = this.#signalOf(e.owner);
    return {
      page: e.value,
      ctx: { signal: signal ? AbortSignal.any([host, signal]) : host },
    };
  }

  async #call(id: string, what: string, fn: () => Promise<Json> | Json): Promise<Json> {
    let out: unknown;
    try {
      out = await fn();
    } catch {
      throw new HarnessError(`page "${id}": ${what} failed`, "see the plugin's log lines");
    }
    try {
      return JSON.parse(JSON.stringify(out ?? null)) as Json;
    } catch {
      throw new HarnessError(`page "${id}": ${what} returned data that is not JSON`);
    }
  }
}
