/**
 * A runtime plugin as the host keeps it ({@link Loaded}), its contract check, its tools
 * wrapped to refuse calls once it stopped, and the time bound of its cleanups.
 *
 * @module
 */
import { type Owner, textResult, type ToolDefinition } from "../base/mod.ts";
import { API_VERSION, type PluginStatus, type RuntimePlugin } from "./types.ts";

const ID_PATTERN = /^[a-z0-9._-]+$/;

/** A plugin as the host keeps it: its state, signal, starts, disposers and audit sinks. */
export interface Loaded {
  id: string;
  owner: Owner;
  version: string;
  required: boolean;
  state: PluginStatus["state"];
  reason?: string;
  /** Set by `ctx.degrade`: the plugin runs, but part of it did not come up (why). */
  degraded?: string;
  /** The definition and parsed configuration it was set up with (for a reload). */
  setupWith?: { plugin: RuntimePlugin<unknown>; config: unknown; boundMs: number };
  controller: AbortController;
  starts: (() => void | Promise<void>)[];
  disposers: (() => void | Promise<void>)[];
  auditKeys: string[];
  active: boolean;
  setupDone: boolean;
  builtin: boolean;
  /** The host's refusal of one of its registrations during setup (the reason it failed). */
  refusal?: string;
}

/** A new record of a plugin in the given state. */
export function loadedRecord(
  id: string,
  version: string,
  required: boolean,
  state: PluginStatus["state"],
  builtin = false,
): Loaded {
  return {
    builtin,
    id,
    owner: builtin ? { kind: "builtin", id } : { kind: "runtime-plugin", id },
    version,
    required,
    state,
    controller: new AbortController(),
    starts: [],
    disposers: [],
    auditKeys: [],
    active: state === "active",
    setupDone: false,
  };
}

/** Runs a promise-returning fn with a time bound; resolves to "timeout" when it is exceeded. */
export async function bounded(
  fn: () => void | Promise<void>,
  ms: number,
): Promise<"ok" | "error" | "timeout"> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    return await Promise.race([
      Promise.resolve().then(fn).then(() => "ok" as const),
      new Promise<"timeout">((r) => timer = setTimeout(() => r("timeout"), ms)),
    ]);
  } catch {
    return "error";
  } finally {
    clearTimeout(timer);
  }
}

/** What is wrong with a plugin definition against the contract; undefined when nothing. */
export function contractProblem(
  plugin: RuntimePlugin<unknown> | undefined,
  expectedId?: string,
): string | undefined {
  if (!plugin || typeof plugin !== "object") {
    return "module has no default export plugin definition";
  }
  if (typeof plugin.id !== "string" || !ID_PATTERN.test(plugin.id)) {
    return "invalid id (use lowercase letters, digits, dots, underscores or hyphens)";
  }
  if (expectedId && expectedId !== plugin.id) {
    return `module defines id "${plugin.id}", expected "${expectedId}"`;
  }
  if (plugin.apiVersion !== API_VERSION) {
    return `unsupported apiVersion (this host implements ${API_VERSION})`;
  }
  if (typeof plugin.version !== "string" || !plugin.version) return "missing version";
  if (typeof plugin.setup !== "function") return "missing setup(ctx)";
  return undefined;
}

/** Wraps a tool so that it refuses calls once its plugin stopped. */
export function guardStale(tool: ToolDefinition, loaded: Loaded): ToolDefinition {
  return {
    ...tool,
    execute: (input, ctx) => {
      if (!loaded.active) {
        return Promise.resolve(
          textResult(
            `error: tool '${tool.name}' is unavailable: its plugin "${loaded.id}" stopped`,
            true,
          ),
        );
      }
      const signal = AbortSignal.any([ctx.signal, loaded.controller.signal]);
      return tool.execute(input, withSignal(ctx, signal));
    },
  };
}

/**
 * `ctx` with another signal, its members copied as they are: a spread would read a lazy
 * one (the child environment, built only when the tool reads it).
 */
function withSignal<T extends { signal: AbortSignal }>(ctx: T, signal: AbortSignal): T {
  const out = Object.defineProperties({}, Object.getOwnPropertyDescriptors(ctx)) as T;
  return Object.defineProperty(out, "signal", {
    value: signal,
    enumerable: true,
    writable: true,
    configurable: true,
  });
}
