/**
 * The library's embedding face: `Harness.create` (the root mod.ts exports {@link Embedding}
 * under that name) takes {@link EmbeddingOptions} and gives an {@link EmbeddedHarness} — runs,
 * the plugins' status and contributions, close. It is the kernel with its built-in plugins (harness.ts), seen
 * through the part an embedding application uses; the front ends of this repository (the CLI,
 * `hs web`, `hs acp`) hold a wider face, `HarnessCore.frontEnd` (core/front_end.ts).
 *
 * @module
 */
import type { PluginStatus, RunOptions, RunResult, RuntimePluginEntry } from "../core/mod.ts";
import { allowAllFloor, type FloorRequest } from "../core/mod.ts";
import { Harness } from "./harness.ts";

/**
 * The effect floor an embedding application asks for. Default (absent): the CLI's —
 * the `workspace` preset (or `HARNESS_FLOOR`, `$HARNESS_HOME/floor.json`, the project's
 * `.harness/floor.json`) with child processes in the OS sandbox. A preset name, or the
 * flags' shape (`preset`, `allow`, `deny`, `yes`, `unsandboxed`), builds that floor the same
 * way. `"allow-all"` — by name only — runs every tool effect unchecked, with no sandbox.
 */
export type EmbeddingFloor =
  | "allow-all"
  | "workspace"
  | "read-only"
  | "full"
  | EmbeddingFloorFlags;

/** The command line's floor flags, as an embedder gives them (see docs/security.md). */
export interface EmbeddingFloorFlags {
  /** `--floor`: the preset (default `workspace`). */
  preset?: "read-only" | "workspace" | "full";
  /** `--allow-read/-write/-net/-run/-env`: lists of paths, hosts, programs or names, or "all". */
  allow?: Partial<Record<"read" | "write" | "net" | "run" | "env", "all" | string[]>>;
  /** `--deny-*`. */
  deny?: Partial<Record<"read" | "write" | "net" | "run" | "env", string[]>>;
  /** `--yes`: approve every `ask` (there is no one to ask). */
  yes?: boolean;
  /** `--unsandboxed`: run child processes without an OS sandbox when none is available. */
  unsandboxed?: boolean;
}

/** What an embedding application may set when it creates a harness. */
export interface EmbeddingOptions {
  /** Working directory (default: Deno.cwd()). */
  cwd?: string;
  /** Environment (default: the process environment). */
  env?: Record<string, string | undefined>;
  /** Trusted plugins supplied by the embedding application. */
  runtimePlugins?: RuntimePluginEntry[];
  /** Read `plugins.json` from HARNESS_HOME (default true). */
  userPlugins?: boolean;
  /** Trust the working directory's `.harness/` sources for this process. */
  trustWorkspace?: boolean;
  /** Where log lines go (default: append to HARNESS_LOG). */
  log?: (line: string) => void;
  /** Disable runtime audit events. */
  audit?: boolean;
  /**
   * Plugin configuration in the shape of `plugins.json` (`{"runtimePlugins": [...]}`), used
   * instead of the user's file: supplying it is the embedding application's trust decision.
   */
  config?: unknown;
  /** An ephemeral instance (a script, a test): the hosted `connector-cloud` is left out. */
  ephemeral?: boolean;
  /** False: do not register the hosted `connector-cloud` plugin. */
  cloudConnectors?: boolean;
  /** The cleanup bound of `close()` per step (default 5000 ms, the seed's). */
  cleanupBoundMs?: number;
  /** The effect floor (default: the CLI's `workspace` preset and OS sandbox; see {@link EmbeddingFloor}). */
  floor?: EmbeddingFloor;
}

/** The kernel's floor options for an {@link EmbeddingFloor}. */
function floorOptions(floor: EmbeddingFloor | undefined) {
  if (floor === "allow-all") return { floor: allowAllFloor };
  if (floor === undefined) return { floorRequest: {} };
  if (typeof floor === "string") return { floorRequest: { preset: floor } };
  return { floorRequest: { ...floor } as FloorRequest };
}

/** What each runtime plugin contributed. */
export interface PluginContributions {
  /** What plugin `id` contributed, per registry kind (`{ tool: ["x__y"] }`; kinds with nothing left out). */
  contributions(id: string): Record<string, string[]>;
}

/** A started harness, as an embedding application holds it. */
export interface EmbeddedHarness {
  /** Runs one turn (a user message until `done`). Rejects once the harness is closed. */
  run(opts: RunOptions): Promise<RunResult>;
  /** Status of every runtime plugin. */
  runtimePluginStatus(): PluginStatus[];
  /** The plugin host, as far as an embedder reads it. */
  readonly host: PluginContributions;
  /** True once close() was called: runs are refused. */
  readonly closed: boolean;
  /**
   * Closes the harness: refuses new runs, cancels and drains the runs in flight, stops the
   * plugins in reverse order. Idempotent.
   */
  close(): Promise<void>;
}

/** Creates harnesses for an embedding application (exported by the root as `Harness`). */
export const Embedding: { create(opts?: EmbeddingOptions): Promise<EmbeddedHarness> } = {
  /** Creates a harness: built-in plugins, then `runtimePlugins`, then user `plugins.json`. */
  create: async (opts: EmbeddingOptions = {}): Promise<EmbeddedHarness> => {
    const { floor, ...rest } = opts;
    const h = await Harness.create({ ...rest, ...floorOptions(floor) });
    return {
      run: (o) => h.run(o),
      runtimePluginStatus: () => h.admin.runtimePluginStatus(),
      host: h.host,
      get closed() {
        return h.closed;
      },
      close: () => h.close(),
    };
  },
};
