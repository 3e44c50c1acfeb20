/**
 * A simulation of Anthropic prompt caching for the scripted server: the
 * request is flattened into blocks in cache order (tools, system, message
 * content); each `cache_control` breakpoint writes its prefix, and a later
 * request reads the longest cached prefix found at a breakpoint or up to 20
 * blocks before it. Sizes are characters / 4, like the server's default usage.
 *
 * @module
 */

/** Blocks examined before a breakpoint when looking for a cached prefix (the API's). */
const LOOKBACK = 20;

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** A block without its `cache_control` (marks do not change what is cached). */
function bare(v: unknown): unknown {
  if (!isObject(v) || !("cache_control" in v)) return v;
  const copy = { ...v };
  delete copy.cache_control;
  return copy;
}

/** The blocks of an Anthropic body in cache order, each with whether it is a breakpoint. */
function blocksOf(body: Record<string, unknown>): { text: string; breakpoint: boolean }[] {
  const out: { text: string; breakpoint: boolean }[] = [];
  const add = (role: string, v: unknown) =>
    out.push({
      text: role + JSON.stringify(bare(v)),
      breakpoint: isObject(v) && "cache_control" in v,
    });
  for (const t of Array.isArray(body.tools) ? body.tools : []) add("tool", t);
  if (typeof body.system === "string") add("system", { type: "text", text: body.system });
  else if (Array.isArray(body.system)) { for (const b of body.system) add("system", b); }
  for (const m of Array.isArray(body.messages) ? body.messages : []) {
    if (!isObject(m)) continue;
    const role = String(m.role);
    if (typeof m.content === "string") add(role, { type: "text", text: m.content });
    else if (Array.isArray(m.content)) { for (const b of m.content) add(role, b); }
  }
  return out;
}

/** Cache state across the requests of one server. */
export class PromptCacheSim {
  #cached = new Map<string, number>();

  /**
   * Reads and writes the cache for one request; returns the tokens read from and written to
   * it (0 and 0 for a request without breakpoints).
   */
  account(body: Record<string, unknown>): { read: number; written: number } {
    const blocks = blocksOf(body);
    const keys: string[] = [];
    const lengths: number[] = [];
    let acc = "";
    for (const b of blocks) {
      acc += b.text + "\u0000";
      keys.push(acc);
      lengths.push(acc.length);
    }
    let read = 0;
    let lastBreakpoint = -1;
    for (let i = 0; i < blocks.length; i++) {
      if (!blocks[i].breakpoint) continue;
      lastBreakpoint = i;
      for (let j = i; j >= Math.max(0, i - LOOKBACK); j--) {
        const hit = this.#cached.get(keys[j]);
        if (hit !== undefined) {
          read = Math.max(read, hit);
          break;
        }
      }
    }
    if (lastBreakpoint < 0) return { read: 0, written: 0 };
    for (let i = 0; i < blocks.length; i++) {
      if (blocks[i].breakpoint) this.#cached.set(keys[i], Math.ceil(lengths[i] / 4));
    }
    const upTo = Math.ceil(lengths[lastBreakpoint] / 4);
    return { read, written: Math.max(0, upTo - read) };
  }
}
