/**
 * The façade a front end (cli/: the commands, the REPL, `hs web`, `hs acp`) is handed instead
 * of the harness: {@link FrontEnd} — runs, the catalog, the sessions, the packs as a view,
 * admin (trust, the floor, plugins, pages), the directories and settings it shows, `log` and
 * `close`. The kernel behind it (registries, the plugin host, the stage runner, discovery,
 * the provider catalog, the effect floor, the trust store) is reachable from none of its
 * members. Its views are small objects over the services, built on first use.
 *
 * @module
 */
import type { HarnessError, Paths, ToolResult } from "./base/mod.ts";
import type { HarnessConfig } from "./config/mod.ts";
import type { Dispatcher, EffectCall } from "./guards/mod.ts";
import type { RunResult } from "./loop/mod.ts";
import type { Packs } from "./packs/mod.ts";
import type { Admin, Catalog } from "./facade.ts";
import { PacksView } from "./packs_view.ts";
import type { RunOptions, Runs } from "./runs.ts";
import { Sessions } from "./session/mod.ts";

/** Runs as a front end starts and inspects them. */
export interface RunsView {
  /** Runs one turn (a user message until `done`). Rejects once the harness is closed. */
  run(opts: RunOptions): Promise<RunResult>;
  /** What the next request of a session holds (`/context`, `hs session show`). */
  contextReport: Runs["contextReport"];
  /** Compacts a session now (`/compact`). */
  compact: Runs["compact"];
  /** True once the harness was closed: runs are refused. */
  readonly closed: boolean;
  /**
   * Why the main agent's runs are refused before they start (a foreground pack that did not
   * load: see core/packs/refusal.ts), or undefined. A front end that waits for input (the
   * REPL) checks it first; `run` throws it.
   */
  refusal(): HarnessError | undefined;
  /**
   * One call through the effect seam as the main agent's tool call would pass it (ceiling,
   * guards, the floor, hooks around it); `core` is the call's own work. Never throws.
   */
  dispatch(call: EffectCall, core: (input: unknown) => Promise<ToolResult>): Promise<ToolResult>;
}

/** The directories a front end shows (`hs doctor`, `hs web`, the sessions notice). */
export type Where = Readonly<Pick<Paths, "cwd" | "home" | "sessions" | "log" | "sessionsSkipped">>;

/** The settings a front end reads (`HARNESS_PROVIDER`, `HARNESS_MODEL`, the trust prompt). */
export type FrontEndSettings = Readonly<Pick<HarnessConfig, "provider" | "model" | "trustPrompt">>;

/** What a front end is handed of a harness: the only thing cli/ holds. */
export interface FrontEnd {
  /** Runs: a turn, `/context`, `/compact`, a call through the seam. */
  readonly runs: RunsView;
  /** Providers, tools, skills, hooks, commands and sources. */
  readonly catalog: Catalog;
  /** This workspace's sessions (and every workspace's). */
  readonly sessions: Sessions;
  /** The behavior packs, as a view. */
  readonly packs: PacksView;
  /** Trust, the effect floor, plugins, pages, `auth-set`. */
  readonly admin: Admin;
  /** The directories it shows. */
  readonly where: Where;
  /** The settings it reads. */
  readonly settings: FrontEndSettings;
  /** The environment the harness was created with (paths are shown relative to its HOME). */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** True once close() was called. */
  readonly closed: boolean;
  /** Appends a line to HARNESS_LOG. */
  log(line: string): void;
  /** Closes the harness (see `HarnessCore.close`). */
  close(): Promise<void>;
}

/** What a front end is built from (the harness's services and its own members). */
export interface FrontEndParts {
  runs: Runs;
  dispatcher: Pick<Dispatcher, "dispatch">;
  catalog: Catalog;
  admin: Admin;
  packs: Packs;
  paths: Paths;
  config: HarnessConfig;
  env: Record<string, string | undefined>;
  log(line: string): void;
  close(): Promise<void>;
  closed(): boolean;
}

/** The façade over a harness's parts; its views are built on first use. */
export function frontEndOf(p: FrontEndParts): FrontEnd {
  let sessions: Sessions | undefined;
  let packs: PacksView | undefined;
  const runs: RunsView = {
    run: (o) => p.runs.run(o),
    contextReport: (o) => p.runs.contextReport(o),
    compact: (o) => p.runs.compact(o),
    refusal: () => p.packs.refusal(),
    get closed() {
      return p.runs.closed;
    },
    dispatch: (call, core) => p.dispatcher.dispatch(call, core),
  };
  const { cwd, home, log } = p.paths;
  const where: Where = {
    cwd,
    home,
    log,
    sessions: p.paths.sessions,
    sessionsSkipped: p.paths.sessionsSkipped,
  };
  const { provider, model, trustPrompt } = p.config;
  return {
    runs,
    catalog: p.catalog,
    get sessions() {
      return sessions ??= new Sessions(p.paths);
    },
    get packs() {
      return packs ??= new PacksView(p.packs);
    },
    admin: p.admin,
    where,
    settings: { provider, model, trustPrompt },
    env: p.env,
    get closed() {
      return p.closed();
    },
    log: (line) => p.log(line),
    close: () => p.close(),
  };
}
