/**
 * The effect policy: what tools may read, write, reach, run and see, as
 * "none", a list, or "all" per effect. Policies come in layers (the process's
 * own permissions, user settings, project settings, CLI flags, a bot's
 * ceiling) and every layer can only narrow the one before it.
 *
 * @module
 */
import { isAbsolute, join, resolve } from "../early/mod.ts";
import { FLOOR_PRESETS } from "../base/mod.ts";
import {
  type Denials,
  type Effect,
  type EffectPolicy,
  EFFECTS,
  type Grant,
} from "../sandbox/mod.ts";

export { type Denials, type Effect, type EffectPolicy, EFFECTS, type Grant };

/** Built-in presets. */
export const PRESETS: typeof FLOOR_PRESETS = FLOOR_PRESETS;
/** A preset name. */
export type Preset = typeof PRESETS[number];

/** Where the placeholders of settings and flags point. */
export interface PolicyPlaces {
  /** The workspace (session working directory). */
  workspace: string;
  /** HARNESS_HOME. */
  home: string;
  /** The user's HOME, for `~`. */
  userHome: string;
}

/** An empty denial set. */
export function noDenials(): Denials {
  return { read: [], write: [], net: [], run: [], env: [] };
}

/** Files no preset lets a tool read or write (secrets). */
export function defaultDenials(p: PolicyPlaces): Denials {
  const secrets = [
    join(p.home, ".auth.json"),
    join(p.home, ".auth-cache.json"),
    join(p.workspace, ".harness", ".auth.json"),
    "/etc/shadow",
    "/etc/gshadow",
    "/etc/sudoers",
    join(p.userHome, ".ssh"),
    join(p.userHome, ".aws"),
    join(p.userHome, ".gnupg"),
  ];
  return { read: [...secrets], write: [...secrets], net: [], run: [], env: [] };
}

/** The policy of a preset. */
export function presetPolicy(preset: Preset, p: PolicyPlaces): EffectPolicy {
  const deny = defaultDenials(p);
  switch (preset) {
    case "full":
      return { read: "all", write: "all", net: "all", run: "all", env: "all", deny };
    case "workspace":
      return {
        read: [p.workspace, p.home],
        write: [p.workspace],
        net: [],
        run: "all",
        env: [],
        deny,
      };
    case "read-only":
      return { read: [p.workspace, p.home], write: [], net: [], run: "all", env: [], deny };
  }
}

/** The policy that narrows nothing (a layer that says nothing). */
export function unrestricted(): EffectPolicy {
  return { read: "all", write: "all", net: "all", run: "all", env: "all", deny: noDenials() };
}

/** Expands `$WORKSPACE`, `$HARNESS_HOME`, `~` and relative paths (against the workspace). */
export function expandPath(raw: string, p: PolicyPlaces): string {
  let s = raw.trim();
  s = s.replace(/^\$WORKSPACE(?=\/|$)/, p.workspace).replace(/^\$HARNESS_HOME(?=\/|$)/, p.home);
  if (s === "~" || s.startsWith("~/")) s = p.userHome + s.slice(1);
  const abs = isAbsolute(s) ? s : resolve(p.workspace, s);
  return abs.length > 1 ? abs.replace(/\/+$/, "") : abs;
}

/** True when `path` is `dir` or below it (both absolute, normalized). */
export function within(path: string, dir: string): boolean {
  if (dir === "/") return path.startsWith("/");
  return path === dir || path.startsWith(dir + "/");
}

function minimalPaths(items: Iterable<string>): string[] {
  const sorted = [...new Set(items)].sort((a, b) => a.length - b.length || (a < b ? -1 : 1));
  const out: string[] = [];
  for (const x of sorted) if (!out.some((d) => within(x, d))) out.push(x);
  return out.sort();
}

function splitHost(h: string): { host: string; port?: string } {
  const m = /^(\[[^\]]+\]|[^:]+)(?::(\d+))?$/.exec(h);
  return m ? { host: m[1].toLowerCase(), port: m[2] } : { host: h.toLowerCase() };
}

/** True when the host entry `entry` (host or host:port) covers `target` (host:port). */
export function hostCovers(entry: string, target: string): boolean {
  const e = splitHost(entry);
  const t = splitHost(target);
  return e.host === t.host && (e.port === undefined || e.port === t.port);
}

/** Intersection of two grants of one effect. */
export function intersect(effect: Effect, a: Grant, b: Grant): Grant {
  if (a === "all") return b === "all" ? "all" : [...b];
  if (b === "all") return [...a];
  const out: string[] = [];
  for (const x of a) {
    for (const y of b) {
      if (effect === "read" || effect === "write") {
        if (within(x, y)) out.push(x);
        else if (within(y, x)) out.push(y);
      } else if (effect === "net") {
        if (hostCovers(y, x)) out.push(x);
        else if (hostCovers(x, y)) out.push(y);
      } else if (x === y) out.push(x);
    }
  }
  return effect === "read" || effect === "write" ? minimalPaths(out) : [...new Set(out)].sort();
}

/** True when the grant allows an item (path, host:port, executable or variable name). */
export function grants(effect: Effect, g: Grant, item: string): boolean {
  if (g === "all") return true;
  if (effect === "read" || effect === "write") return g.some((d) => within(item, d));
  if (effect === "net") return g.some((e) => hostCovers(e, item));
  if (effect === "run") {
    const base = item.slice(item.lastIndexOf("/") + 1);
    return g.some((e) => e === item || e === base);
  }
  return g.includes(item);
}

/** True when a denial list covers an item. */
export function denied(effect: Effect, list: string[], item: string): boolean {
  if (list.length === 0) return false;
  if (effect === "read" || effect === "write") return list.some((d) => within(item, d));
  if (effect === "net") return list.some((e) => hostCovers(e, item));
  if (effect === "run") {
    const base = item.slice(item.lastIndexOf("/") + 1);
    return list.some((e) => e === item || e === base);
  }
  return list.includes(item);
}

/**
 * True when the policy grants less than `outer` on some effect (then child processes
 * need the OS sandbox). Deny lists alone do not count: `full` runs children directly.
 */
export function narrowerThan(policy: EffectPolicy, outer: EffectPolicy): boolean {
  return EFFECTS.some((e) => outer[e] === "all" && policy[e] !== "all");
}

/** A grant as text: `all`, `none`, or the comma-joined list. */
export function formatGrant(g: Grant): string {
  return g === "all" ? "all" : g.length === 0 ? "none" : g.join(", ");
}

// ---------------------------------------------------------------- settings

/** A grant as written in `floor.json`. */
export type GrantSetting = "all" | "none" | string[];

/** A parsed `floor.json`. */
export interface FloorSettings {
  /** The preset the layer starts from. */
  preset?: Preset;
  /** Grants per effect: everything, nothing, or a list. */
  allow?: Partial<Record<Effect, GrantSetting>>;
  /** Denials per effect (they win over grants). */
  deny?: Partial<Record<Effect, string[]>>;
  /** Permission rules by verdict (`tool(pattern)`). */
  rules?: { allow?: string[]; ask?: string[]; deny?: string[] };
}

/** One layer's wishes, before expansion. */
export interface LayerInput {
  /** The preset the layer starts from. */
  preset?: Preset;
  /** Grants per effect: everything, nothing, or a list. */
  allow?: Partial<Record<Effect, "all" | "none" | string[]>>;
  /** Denials per effect (they win over grants). */
  deny?: Partial<Record<Effect, string[]>>;
}

/** True when a layer asks for nothing (it then narrows nothing). */
export function isEmptyLayer(l: LayerInput): boolean {
  const hasAllow = Object.values(l.allow ?? {}).some((v) => v !== undefined);
  const hasDeny = Object.values(l.deny ?? {}).some((v) => v !== undefined && v.length > 0);
  return !l.preset && !hasAllow && !hasDeny;
}

function expandItem(effect: Effect, item: string, p: PolicyPlaces): string {
  return effect === "read" || effect === "write" ? expandPath(item, p) : item.trim();
}

/**
 * The policy one layer stands for: its preset (default `workspace`), widened by its
 * own explicit allows (a layer may add to its own preset), minus its denials.
 * Narrowing happens between layers, in {@link resolvePolicy}.
 */
export function layerPolicy(l: LayerInput, p: PolicyPlaces): EffectPolicy {
  const base = presetPolicy(l.preset ?? "workspace", p);
  for (const e of EFFECTS) {
    const a = l.allow?.[e];
    if (a === undefined) continue;
    if (a === "all") base[e] = "all";
    else if (a === "none") base[e] = [];
    else if (base[e] !== "all") {
      // allows add to the layer's own preset ("all" stays "all")
      const items = [...(base[e] as string[]), ...a.map((x) => expandItem(e, x, p))];
      base[e] = e === "read" || e === "write" ? minimalPaths(items) : [...new Set(items)];
    }
  }
  for (const e of EFFECTS) {
    for (const d of l.deny?.[e] ?? []) base.deny[e].push(expandItem(e, d, p));
  }
  return base;
}

/**
 * The policy of a layer that may only narrow (a project's `floor.json`, a bot's ceiling):
 * without a preset it starts from "everything", and its allow lists are the only items
 * it permits (with a preset, they add to the preset's lists as for the user's layer).
 */
export function narrowingPolicy(l: LayerInput, p: PolicyPlaces): EffectPolicy {
  if (l.preset) return layerPolicy(l, p);
  const base = unrestricted();
  for (const e of EFFECTS) {
    const a = l.allow?.[e];
    if (a === undefined) continue;
    base[e] = a === "all"
      ? "all"
      : a === "none"
      ? []
      : (e === "read" || e === "write" ? minimalPaths(a.map((x) => expandItem(e, x, p))) : [
        ...new Set(a.map((x) => expandItem(e, x, p))),
      ]);
  }
  for (const e of EFFECTS) {
    for (const d of l.deny?.[e] ?? []) base.deny[e].push(expandItem(e, d, p));
  }
  return base;
}

/** A named layer of the policy chain. */
export interface PolicyLayer {
  /** `process`, `user`, `project`, `flags`, `ceiling`. */
  name: string;
  /** Where it came from (a file path, `deno permissions`, `command line`). */
  origin: string;
  /** The policy this layer grants. */
  policy: EffectPolicy;
}

/** The effective policy with, per effect, the layer that last narrowed it. */
export interface ResolvedPolicy {
  /** The effective policy (the intersection of the layers). */
  policy: EffectPolicy;
  /** Per effect (and for denials), the layer that last narrowed it. */
  sources: Record<Effect | "deny", string>;
  /** The layers, in order. */
  layers: PolicyLayer[];
}

/** Intersects the layers in order (process first); denials accumulate. */
export function resolvePolicy(layers: PolicyLayer[]): ResolvedPolicy {
  const chain = layers;
  let policy = unrestricted();
  const sources = {
    read: "process",
    write: "process",
    net: "process",
    run: "process",
    env: "process",
    deny: "none",
  } as Record<Effect | "deny", string>;
  for (const l of chain) {
    const next: EffectPolicy = { ...policy, deny: { ...policy.deny } };
    for (const e of EFFECTS) {
      next[e] = intersect(e, policy[e], l.policy[e]);
      if (JSON.stringify(next[e]) !== JSON.stringify(policy[e])) {
        sources[e] = `${l.name} (${l.origin})`;
      }
      const added = l.policy.deny[e].filter((d) => !policy.deny[e].includes(d));
      if (added.length) {
        next.deny[e] = [...policy.deny[e], ...added];
        sources.deny = sources.deny === "none" ? l.name : `${sources.deny}, ${l.name}`;
      }
    }
    policy = next;
  }
  return { policy, sources, layers: chain };
}

/**
 * The process's own Deno permissions as a layer. An effect the process holds only
 * for some paths/hosts counts as "all" here and is listed in `partial`; list items
 * are then checked one by one by {@link clampToProcess}.
 */
export function processLayer(
  query = Deno.permissions.querySync,
): PolicyLayer & { partial: Effect[] } {
  const policy = unrestricted();
  const partial: Effect[] = [];
  for (const e of EFFECTS) {
    const state = query({ name: e } as Deno.PermissionDescriptor).state;
    if (state !== "granted") partial.push(e);
  }
  const origin = partial.length
    ? `deno permissions (partly held: ${partial.join(", ")})`
    : "deno permissions (all)";
  return { name: "process", origin, policy, partial };
}

/**
 * Removes list items the process does not hold (a worker cannot be given more than
 * its parent): per-path queries for effects the process holds only partly.
 */
export function clampToProcess(
  policy: EffectPolicy,
  partial: Effect[],
  query = Deno.permissions.querySync,
): EffectPolicy {
  const out: EffectPolicy = { ...policy, deny: policy.deny };
  for (const e of partial) {
    const g = out[e];
    if (g === "all") continue;
    out[e] = g.filter((item) => {
      const d = e === "net"
        ? { name: "net", host: item }
        : e === "env"
        ? { name: "env", variable: item }
        : e === "run"
        ? { name: "run", command: item }
        : { name: e, path: item };
      try {
        return query(d as Deno.PermissionDescriptor).state === "granted";
      } catch {
        return false;
      }
    });
  }
  return out;
}
