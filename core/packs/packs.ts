/**
 * The behavior packs of one harness: found in `$HARNESS_HOME/packs/`, in the
 * `.harness/packs/` of trusted workspaces and registered by runtime plugins;
 * their bots read; the foreground bot's program loaded and attached to the
 * main agent (its guards, hooks and tools on the seam, its prompt, its tool
 * list as the effect ceiling); named bots loaded when an agent asks for one.
 *
 * A pack program is loaded by a {@link ProgramLoader} the composition root
 * supplies (core knows nothing of Scheme). Every bot loads its own copy of
 * its program: two bots that load the same file do not share anything.
 *
 * This file holds the packs and their bots; each concept is handed its data: reading and
 * loading (loading.ts), the program's services and state events (wiring.ts), the commands
 * (command_calls.ts), the types (program.ts).
 *
 * @module
 */
import type { HarnessEvent, Json, Owner, PromptSource, ToolDefinition } from "../base/mod.ts";
import type { PolicyPlaces } from "../guards/mod.ts";
import { RunRegistry } from "./behavior.ts";
import {
  callPluginMethod,
  type CommandPlace,
  evaluatePackCommand,
  packCommands,
  performAction,
} from "./command_calls.ts";
import type { CommandEvaluator, CommandView, PackCommand, SessionAction } from "./commands.ts";
import type { GuardApprovals } from "./consent.ts";
import { HarnessError, loadYaml } from "../base/mod.ts";
import { loadBot, readPackStates } from "./loading.ts";
import { perConversation } from "./instances.ts";
import type { BotState, PackState, ProgramLoader, ProgramRequest } from "./program.ts";
import { checkStates, foregroundRefusal, type PackLoadError } from "./refusal.ts";
import { PackPublisher, type PackRegistries } from "./publish.ts";
import type { StateInstance } from "./state.ts";
import { type SessionRef, StateHost, type StateModuleLoader } from "./states.ts";
import {
  botServices,
  type BotWiring,
  emitCommit,
  type MethodCallSeen,
  observedServices,
} from "./wiring.ts";

/** Options of {@link Packs}. */
export interface PacksOptions {
  /** Pack directories with where they came from, lowest priority first. */
  dirs(): { dir: string; source: string }[];
  /** `$HARNESS_HOME/plugin-data` (for `${PLUGIN_DATA}`). */
  dataDir: string;
  /** The recorded guard approvals. */
  approvals: GuardApprovals;
  /** Loads behavior programs (absent: bots with a behavior do not attach). */
  loader?: ProgramLoader;
  /** The places effect policies name (workspace, home, ...). */
  places: PolicyPlaces;
  /** Packs whose foreground bot the user opted out of (`plugins.<name>.foreground: false`). */
  foregroundOff: ReadonlySet<string>;
  /** Writes a line to the harness log. */
  log(line: string): void;
  /** `$HARNESS_HOME` (project and global state logs live in its `plugin-state/`). */
  home?: string;
  /** The project root (project-scope states are keyed by it). */
  project?: string;
  /** Loads state modules and evaluates pack commands (from stdlib-harness). */
  runtime?: PackRuntime;
  /**
   * The principal whose behavior applies to an agent (a plain worker runs under its
   * parent's guards and hooks); default: the agent's own.
   */
  behaviorOf?(principal: string): string;
  /** Where the bots' guards, hooks, tools, prompts and ceilings are published (publish.ts). */
  registries?: PackRegistries;
  /** Sees every `call/method` of the bots' programs (`hs packs test`). */
  onMethodCall?(m: MethodCallSeen): void;
}

/** The Scheme side of states and commands (supplied by stdlib-harness). */
export interface PackRuntime {
  /** Loads a state module. */
  loadState: StateModuleLoader;
  /** Evaluates a pack command. */
  evaluateCommand: CommandEvaluator;
}

/** The behavior packs of a harness. */
export class Packs {
  #o: PacksOptions;
  #packs: PackState[] = [];
  /** The states of the packs (session, project, global, private). */
  readonly states: StateHost;
  /** The runs in flight (where notes and session states go). */
  readonly runs: RunRegistry = new RunRegistry();
  /** Private states by `<pack>/<bot>`. */
  #private = new Map<string, StateInstance>();
  /** Subscriber deliveries in flight. */
  #deliveries = new Set<Promise<void>>();
  #publisher?: PackPublisher;

  /** Creates the packs of a harness; call `load` to read them. */
  constructor(opts: PacksOptions) {
    this.#o = opts;
    if (opts.registries) this.#publisher = new PackPublisher(opts.registries);
    this.states = new StateHost({
      home: opts.home ?? opts.dataDir.replace(/\/plugin-data$/, ""),
      project: opts.project ?? Deno.cwd(),
      loader: opts.runtime?.loadState,
      manifest: (name) => this.#packs.find((p) => p.manifest?.name === name)?.manifest,
      log: opts.log,
      onCommit: (c) => emitCommit(c, this.runs, this.#private),
    });
  }

  /** Reads every pack and attaches the foreground bot(s). */
  async load(): Promise<void> {
    const dirs = this.#o.dirs();
    if (dirs.length) await loadYaml(); // bot frontmatters and error positions read YAML
    this.#packs = readPackStates({
      dirs,
      dataDir: this.#o.dataDir,
      foregroundOff: this.#o.foregroundOff,
      log: (line) => this.#o.log(line),
    });
    for (const b of this.bots()) {
      if (b.spec.attach === "foreground" && b.status === "ready") await this.#attach(b);
    }
    // a foreground pack's state modules are part of the main agent's behavior: their load
    // errors are found now (refusal.ts), not at the first call/method
    const load = this.#o.runtime?.loadState;
    for (const p of this.#packs) {
      const foreground = p.bots.some((b) =>
        b.spec.attach === "foreground" && !this.#o.foregroundOff.has(b.pack.name)
      );
      if (load && p.manifest && foreground && Object.keys(p.manifest.states).length) {
        p.stateErrors = await checkStates(p.manifest, load);
      }
    }
    this.#publisher?.publish(this.bots());
  }

  /** Attaches a bot and publishes the bots' contributions as they now stand. */
  async #attach(b: BotState): Promise<void> {
    await this.#load(b);
    this.#publisher?.publish(this.bots());
  }

  /** Loads a bot's program and checks its configuration and guard approvals. */
  async #load(b: BotState): Promise<void> {
    let request: ProgramRequest | undefined;
    const loader = this.#o.loader;
    const attached = await loadBot(b, {
      loader: loader && ((req) => loader(request = req)),
      approvals: this.#o.approvals,
      places: this.#o.places,
      behaviorOf: this.#o.behaviorOf,
      log: (line) => this.#o.log(line),
      services: observedServices(
        botServices(b, this.#wiring()),
        `${b.pack.name}/${b.spec.name}`,
        this.#o.onMethodCall,
      ),
    });
    if (attached && b.program && loader && request && b.spec.scope === "session") {
      // one instance per conversation session (instances.ts)
      const again = request;
      b.program = perConversation(
        b.program,
        (session, dir) => this.runs.find(session, dir)?.conversation.id,
        () => loader(again),
      );
    }
    const state = b.program?.state;
    // a named bot's own state lives at its scope (wiring.ts), opened when it is first called
    if (attached && state && b.spec.attach === "foreground") {
      const key = `${b.pack.name}/${b.spec.name}`;
      this.#private.set(key, this.states.privateState(b.pack.name, b.spec.name, state));
    }
  }

  /** What a bot's services resolve against. */
  #wiring(): BotWiring {
    return { runs: this.runs, states: this.states, privateStates: this.#private };
  }

  /**
   * Delivers an outbound event of an agent's run to the subscribers of the bots that apply
   * to it (fail open; {@link settle} waits for them).
   */
  outbound(principal: string, session: SessionRef, event: HarnessEvent): void {
    if (event.type === "text" || event.type === "thinking" || event.type === "tool_call_delta") {
      return;
    }
    for (const b of this.#attached()) {
      if (b.principal !== principal || !b.program?.deliver || !b.program.subscribers?.length) {
        continue;
      }
      const p = b.program.deliver(JSON.parse(JSON.stringify(event)) as Json, {
        principal,
        session: session.id,
        sessionDir: session.dir,
        boundary: "round",
        at: "call",
        noNotify: "subscriber",
      }).catch(() => {}).finally(() => this.#deliveries.delete(p));
      this.#deliveries.add(p);
    }
  }

  /** Waits for subscriber deliveries in flight (bounded). */
  async settle(timeoutMs = 2000): Promise<void> {
    if (this.#deliveries.size === 0) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([
      Promise.allSettled([...this.#deliveries]),
      new Promise<void>((r) => timer = setTimeout(r, timeoutMs)),
    ]);
    clearTimeout(timer);
  }

  /** Revisions of the private states of the bots an agent runs with (for turn records). */
  privateRevisions(principal: string): Record<string, number> {
    const keys = this.#attached().filter((b) => b.principal === principal).map((b) =>
      `${b.pack.name}/${b.spec.name}`
    );
    return this.states.privateRevisions(keys);
  }

  /** The commands of every pack (a more local pack's command wins by name). */
  commands(): { commands: PackCommand[]; problems: string[] } {
    return packCommands(this.#packs.map((p) => p.manifest));
  }

  /**
   * Evaluates a pack command's body: its view (choice rows and action leaves). Reads through
   * `(rpc 'plugin/method …)` come back as `{ok, result}` or `{ok: #f, error}`.
   */
  async evaluateCommand(
    name: string,
    opts: CommandPlace = {},
  ): Promise<{ command: PackCommand; view: CommandView }> {
    const command = this.commands().commands.find((c) => c.name === name);
    if (!command) {
      throw new HarnessError(`no pack command /${name}`, "list them with: hs packs");
    }
    const view = await evaluatePackCommand(command, opts, {
      evaluate: this.#o.runtime?.evaluateCommand,
      states: this.states,
      log: (line) => this.#o.log(line),
    });
    return { command, view };
  }

  /**
   * Performs a command's leaf: `plugin/method` calls a method of the command's own pack
   * (every method granted, host-only actions not); `message` asks the agent.
   */
  async perform(
    pack: string,
    action: SessionAction,
    opts: CommandPlace = {},
  ): Promise<{ result?: Json; message?: string }> {
    return await performAction(this.states, pack, action, opts);
  }

  /** The `plugin/method` session verb of a command of `pack`. */
  async pluginMethod(
    pack: string,
    params: { [k: string]: Json },
    opts: CommandPlace = {},
  ): Promise<Json> {
    return await callPluginMethod(this.states, pack, params, opts);
  }

  /** Approves a bot's pending guards (the person at the terminal did) and attaches it. */
  async approve(b: BotState): Promise<void> {
    this.#o.approvals.approve(b.pending);
    b.pending = [];
    b.status = "ready";
    b.program = undefined;
    await this.#attach(b);
  }

  /**
   * Loads every named bot and checks every `states` module too (for listings and approvals;
   * runs load them on first use): a state module's load error (a second reducer, `JSON.parse`
   * in a reducer, no reducer) is recorded on its pack.
   */
  async loadNamed(): Promise<void> {
    for (const b of this.bots()) {
      if (b.spec.attach === "named" && b.status === "ready") await this.#attach(b);
    }
    const load = this.#o.runtime?.loadState;
    for (const p of this.#packs) {
      if (load && p.manifest) p.stateErrors = await checkStates(p.manifest, load);
    }
  }

  /**
   * Why the main agent may not run: a foreground pack that did not load (refusal.ts), or
   * undefined. Runs of the main agent throw it.
   */
  refusal(): PackLoadError | undefined {
    return foregroundRefusal(this.#packs, this.#o.foregroundOff, this.#declined);
  }

  /** Bots whose waiting guards the person was asked about and declined, for this harness. */
  #declined = new Set<BotState>();

  /**
   * The person was asked to approve a bot's waiting guards and said "not now": the bot stays
   * detached and the main agent runs without it for this harness — their choice, not a run
   * that could not ask (which {@link refusal} refuses).
   */
  decline(b: BotState): void {
    this.#declined.add(b);
  }

  /** Every pack, with its bots and problems. */
  list(): PackState[] {
    return this.#packs;
  }

  /** Every bot of every pack. */
  bots(): BotState[] {
    return this.#packs.flatMap((p) => p.bots);
  }

  /** A named bot (loaded on first use). */
  async named(name: string): Promise<BotState | undefined> {
    const b = this.bots().find((x) => x.spec.attach === "named" && x.spec.name === name);
    if (b && b.status === "ready") await this.#attach(b);
    return b;
  }

  #attached(): BotState[] {
    return this.bots().filter((b) => b.status === "attached" && b.program);
  }

  /** Model tools of attached bots, each with its owner and the agent it belongs to. */
  tools(): { def: ToolDefinition; owner: Owner; principal: string }[] {
    return this.#attached().flatMap((b) =>
      b.program!.tools.map((def) => ({
        def,
        owner: { kind: "behavior" as const, pack: b.pack.name, bot: b.spec.name },
        principal: b.principal,
      }))
    );
  }

  /** The prompt of the bot an agent runs as (the foreground bot's for "main"). */
  prompt(principal: string): PromptSource | undefined {
    const b = this.bots().find((x) =>
      x.principal === principal && (x.status === "attached" || x.status === "no behavior")
    );
    if (!b || !b.spec.prompt) return undefined;
    return { id: `bot:${b.pack.name}/${b.spec.name}`, order: 50, render: () => b.spec.prompt };
  }

  /** The tools an agent may use (its bot's `tools` list), or undefined for no ceiling. */
  ceiling(principal: string): ReadonlySet<string> | undefined {
    const b = this.bots().find((x) =>
      x.principal === principal && x.spec.tools &&
      (x.status === "attached" || x.status === "no behavior")
    );
    return b ? new Set(b.spec.tools) : undefined;
  }
}
