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
 * @module
 */
import { basename, join } from "node:path";
import {
  HarnessError,
  type HarnessEvent,
  type Json,
  type Owner,
  type PromptSource,
  type ToolDefinition,
} from "../base/mod.ts";
import type { Guard, Hook, PolicyPlaces } from "../guards/mod.ts";
import {
  type BehaviorServices,
  type CallbackScope,
  type MethodRequest,
  RunRegistry,
} from "./behavior.ts";
import { type BotSpec, readBot } from "./bots.ts";
import {
  type CommandEvaluator,
  type CommandView,
  type PackCommand,
  pluginMethodParams,
  type SessionAction,
} from "./commands.ts";
import type { GuardApprovals, GuardConsent } from "./consent.ts";
import { type PackError, type PackManifest, readPack } from "./manifest.ts";
import { PackPublisher, type PackRegistries } from "./publish.ts";
import {
  MethodError,
  type MethodGrant,
  type StateCommit,
  type StateInstance,
  type StateModule,
} from "./state.ts";
import { type SessionRef, StateHost, type StateModuleLoader } from "./states.ts";

/** What a program offers the seam once loaded. */
export interface BehaviorProgram {
  /** The guards the program declares. */
  guards: Guard[];
  /** The hooks the program declares. */
  hooks: Hook[];
  /** Model tools of the program (`define/tool` 'tool or 'both). */
  tools: ToolDefinition[];
  /** Each guard's consent record. */
  consent: Omit<GuardConsent, "pack" | "bot">[];
  /** Runs `validate/configuration`; the problem, if any. */
  validateConfiguration(): Promise<string | undefined>;
  /** The program's own reducer and methods (its private state), when it declares them. */
  state?: StateModule;
  /** Names of its `subscribe` subscribers. */
  subscribers?: string[];
  /** Delivers one outbound event to its subscribers (fail open; resolves when they ran). */
  deliver?(event: Json, scope: CallbackScope): Promise<void>;
}

/** Everything a program needs to load for one bot. */
export interface ProgramRequest {
  /** Absolute path of the program. */
  file: string;
  /** Absolute root of the pack. */
  root: string;
  /** The bot's behavior configuration. */
  configuration: Json;
  /** The pack's name. */
  pack: string;
  /** The bot's name. */
  bot: string;
  /** The agents the bot's behavior applies to. */
  appliesTo(principal: string): boolean;
  /** The places effect policies name (workspace, home, ...). */
  places: PolicyPlaces;
  /** Writes a line to the harness log. */
  log(text: string): void;
  /** The host services of the program's callbacks (`call/method`, `self/notify`). */
  services?: BehaviorServices;
  /** The agent the bot's behavior applies to ("main" for a foreground bot). */
  principal?: string;
}

/** Loads a behavior program (supplied by stdlib-harness through the root `mod.ts`). */
export type ProgramLoader = (req: ProgramRequest) => Promise<BehaviorProgram>;

/** How a bot stands. */
export type BotStatus =
  | "attached"
  | "ready"
  | "awaiting approval"
  | "not attached"
  | "no behavior"
  | "disabled";

/** A bot with its state. */
export interface BotState {
  /** The parsed bot. */
  spec: BotSpec;
  /** The pack it belongs to. */
  pack: PackManifest;
  /** How it stands. */
  status: BotStatus;
  /** Why it is not attached (load errors and problems, with file:line:col). */
  reason?: string;
  /** Guards waiting for approval. */
  pending: GuardConsent[];
  /** The loaded behavior program, once it loaded. */
  program?: BehaviorProgram;
  /** The principal its behavior applies to ("main" for the foreground bot). */
  principal: string;
}

/** A pack as listed by `hs packs`. */
export interface PackState {
  /** The pack's directory. */
  dir: string;
  /** Where it was found (the source of its directory). */
  source: string;
  /** The parsed manifest, when it loaded. */
  manifest?: PackManifest;
  /** Why the pack did not load. */
  error?: string;
  /** The pack's bots, with their status. */
  bots: BotState[];
}

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
}

/** The Scheme side of states and commands (supplied by stdlib-harness). */
export interface PackRuntime {
  /** Loads a state module. */
  loadState: StateModuleLoader;
  /** Evaluates a pack command. */
  evaluateCommand: CommandEvaluator;
}

/** Names REPL built-ins keep (a pack command of that name is reported and not offered). */
export const RESERVED_COMMANDS: ReadonlySet<string> = new Set([
  "help",
  "session",
  "plugins",
  "new",
  "quit",
  "exit",
  "rewind",
  "turns",
  "fork",
  "commands",
]);

/** The principal a named bot runs as. */
export function botPrincipal(name: string): string {
  return `bot:${name}`;
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
      onCommit: (c) => this.#committed(c),
    });
  }

  /** Reads every pack and attaches the foreground bot(s). */
  async load(): Promise<void> {
    const byName = new Map<string, PackState>();
    for (const { dir, source } of this.#o.dirs()) {
      const state: PackState = { dir, source, bots: [] };
      try {
        state.manifest = readPack(dir, this.#o.dataDir);
      } catch (err) {
        state.error = (err as Error).message;
        this.#o.log(`[packs] ${state.error}`);
        byName.set(`\0${dir}`, state);
        continue;
      }
      const m = state.manifest;
      for (const file of m.bots) {
        let spec: BotSpec;
        try {
          spec = readBot(file, m.root);
        } catch (err) {
          const e = err as PackError;
          state.bots.push({
            spec: {
              file,
              name: file.split("/").pop()!.replace(/\.prompt$/, ""),
              prompt: "",
              attach: "named",
            },
            pack: m,
            status: "not attached",
            reason: e.message,
            pending: [],
            principal: "",
          });
          continue;
        }
        const foreground = spec.attach === "foreground";
        state.bots.push({
          spec,
          pack: m,
          status: spec.problem
            ? "not attached"
            : !spec.behavior
            ? "no behavior"
            : foreground && this.#o.foregroundOff.has(m.name)
            ? "disabled"
            : "ready",
          reason: spec.problem,
          pending: [],
          principal: foreground ? "main" : botPrincipal(spec.name),
        });
      }
      byName.set(m.name, state); // a more local pack of the same name wins
    }
    this.#packs = [...byName.values()];
    for (const b of this.bots()) {
      if (b.spec.attach === "foreground" && b.status === "ready") await this.#attach(b);
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
    const loader = this.#o.loader;
    if (!loader || !b.spec.behavior) {
      b.status = "not attached";
      b.reason = loader ? b.reason : "this build has no behavior-program loader";
      return;
    }
    const principal = b.principal;
    let program: BehaviorProgram;
    try {
      program = await loader({
        file: b.spec.behavior.program,
        root: b.pack.root,
        configuration: b.spec.behavior.configuration,
        pack: b.pack.name,
        bot: b.spec.name,
        appliesTo: (p) => (this.#o.behaviorOf?.(p) ?? p) === principal,
        places: this.#o.places,
        log: (t) => this.#o.log(`[pack ${b.pack.name}/${b.spec.name}] ${t}`),
        services: this.#services(b),
        principal,
      });
    } catch (err) {
      b.status = "not attached";
      b.reason = (err as Error).message;
      this.#o.log(`[packs] ${b.pack.name}/${b.spec.name}: ${b.reason}`);
      return;
    }
    const invalid = await program.validateConfiguration();
    if (invalid) {
      b.status = "not attached";
      b.reason = `${b.spec.file}: configuration: ${invalid}`;
      return;
    }
    b.pending = program.consent
      .filter((c) => !this.#o.approvals.isApproved(c.hash))
      .map((c) => ({ ...c, pack: b.pack.name, bot: b.spec.name }));
    if (b.pending.length) {
      b.status = "awaiting approval";
      b.reason =
        `${b.pending.length} guard(s) not approved (an unapproved guard is a load error): ` +
        "approve them with: hs packs approve";
      b.program = program;
      return;
    }
    b.program = program;
    b.status = "attached";
    if (program.state) {
      const key = `${b.pack.name}/${b.spec.name}`;
      this.#private.set(key, this.states.privateState(b.pack.name, b.spec.name, program.state));
    }
  }

  /** The host services of a bot's program. */
  #services(b: BotState): BehaviorServices {
    const from = `${b.pack.name}/${b.spec.name}`;
    return {
      callMethod: async (req, scope) => {
        const { instance, grant } = await this.#receiver(b, req, scope);
        return await instance.call(grant, {
          method: req.method,
          input: req.input,
          callId: req.callId,
          revision: req.revision,
          abi: req.abi,
          chain: req.chain,
        });
      },
      notify: (kind, message, scope) => {
        if (scope.noNotify === "method") {
          throw new Error("self/notify in a method: a method call has no notification destination");
        }
        if (scope.noNotify === "subscriber") {
          throw new Error(
            "self/notify in a subscriber: an outbound event has no notification destination",
          );
        }
        const run = this.runs.find(scope.session, scope.sessionDir);
        if (!run || run.principal !== scope.principal) {
          throw new Error("self/notify: no turn of this agent is running");
        }
        const note = { kind, from, message, boundary: scope.boundary, at: scope.at };
        run.note(note);
        run.emit?.({ type: "note", kind, from, message });
      },
    };
  }

  /** Resolves a binding of a bot to its receiver and the grant the host pinned. */
  async #receiver(
    b: BotState,
    req: MethodRequest,
    scope: CallbackScope,
  ): Promise<{ instance: StateInstance; grant: MethodGrant }> {
    const what = `call/method '${req.binding} '${req.method}`;
    if (req.extra?.length) {
      throw new MethodError(
        `${what}: ${req.extra.map((k) => `:${k}`).join(" ")} — arguments cannot widen the ` +
          "grant or point at a different owner (the host pins the owner and the methods)",
      );
    }
    if (req.binding === "self") {
      const own = this.#private.get(`${b.pack.name}/${b.spec.name}`);
      if (!own) throw new MethodError(`${what}: the program declares no reducer of its own`);
      return { instance: own, grant: { pack: own.pack, scope: "private", methods: "all" } };
    }
    const binding = b.spec.behavior?.bindings[req.binding];
    if (!binding) {
      const names = Object.keys(b.spec.behavior?.bindings ?? {});
      throw new MethodError(
        `${what}: bot ${b.spec.name} has no binding "${req.binding}"`,
        `its bindings: ${names.join(", ") || "none"} (declare them under behavior.bindings)`,
      );
    }
    let session: SessionRef | undefined;
    if (binding.scope === "session") {
      const run = this.runs.find(scope.session, scope.sessionDir);
      session = run?.conversation;
      if (!session) throw new MethodError(`${what}: a session binding needs a running session`);
    }
    const instance = await this.states.instance(binding.plugin, binding.scope, session);
    return {
      instance,
      grant: { pack: binding.plugin, scope: binding.scope, methods: new Set(binding.methods) },
    };
  }

  #committed(c: StateCommit): void {
    const event: HarnessEvent = {
      type: "state",
      plugin: c.pack,
      scope: c.scope,
      revision: c.revision,
      by: c.by,
      ...(c.method ? { method: c.method } : {}),
    };
    for (const run of this.runs.all()) {
      if (c.scope === "session" && c.id !== `${c.pack}/session/${run.conversation.id}`) continue;
      if (c.scope === "private" && !this.#private.has(c.id.split("/private/")[1] ?? "")) continue;
      try {
        run.emit?.(event);
      } catch { /* observers fail open */ }
    }
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
    const byName = new Map<string, PackCommand>();
    const problems: string[] = [];
    for (const p of this.#packs) {
      const m = p.manifest;
      if (!m) continue;
      for (const file of m.commands) {
        const name = basename(file).replace(/\.scm$/, "");
        if (RESERVED_COMMANDS.has(name)) {
          problems.push(
            `${m.name}: /${name} is a built-in command; the pack's ${file} is not offered`,
          );
          continue;
        }
        const prev = byName.get(name);
        if (prev && prev.pack !== m.name) {
          problems.push(`/${name} of ${m.name} replaces the one of ${prev.pack}`);
        }
        byName.set(name, { name, pack: m.name, file, root: m.root });
      }
    }
    return {
      commands: [...byName.values()].sort((a, b) => a.name < b.name ? -1 : 1),
      problems,
    };
  }

  /**
   * Evaluates a pack command's body: its view (choice rows and action leaves). Reads through
   * `(rpc 'plugin/method …)` come back as `{ok, result}` or `{ok: #f, error}`.
   */
  async evaluateCommand(
    name: string,
    opts: { session?: SessionRef; composer?: string } = {},
  ): Promise<{ command: PackCommand; view: CommandView }> {
    const command = this.commands().commands.find((c) => c.name === name);
    if (!command) {
      throw new HarnessError(`no pack command /${name}`, "list them with: hs packs");
    }
    const evaluate = this.#o.runtime?.evaluateCommand;
    if (!evaluate) throw new HarnessError("this build has no command evaluator (stdlib-harness)");
    const view = await evaluate({
      file: command.file,
      root: command.root,
      pack: command.pack,
      name,
      composer: opts.composer ?? "",
      log: (t) => this.#o.log(`[pack ${command.pack} /${name}] ${t}`),
      rpc: async (op, params): Promise<Json> => {
        try {
          if (op !== "plugin/method") throw new Error(`rpc: unknown session verb '${op}`);
          return { ok: true, result: await this.pluginMethod(command.pack, params, opts) };
        } catch (err) {
          return { ok: false, error: (err as Error).message };
        }
      },
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
    opts: { session?: SessionRef; composer?: string } = {},
  ): Promise<{ result?: Json; message?: string }> {
    if (action.op === "plugin/method") {
      return { result: await this.pluginMethod(pack, action.params, opts) };
    }
    if (action.op === "message") {
      const text = typeof action.params.text === "string" ? action.params.text : "";
      const message = [text, opts.composer ?? ""].filter((t) => t.trim() !== "").join(" ");
      if (!message) throw new HarnessError("message: nothing to send (give :text or type it)");
      return { message };
    }
    throw new HarnessError(`unknown session verb '${action.op} (known: plugin/method, message)`);
  }

  /** The `plugin/method` session verb of a command of `pack`. */
  async pluginMethod(
    pack: string,
    params: { [k: string]: Json },
    opts: { session?: SessionRef; composer?: string } = {},
  ): Promise<Json> {
    const p = pluginMethodParams(params, pack, opts.composer);
    if (p.plugin !== pack) {
      throw new MethodError(
        `plugin/method: a command of ${pack} reaches only its own plugin's state (not ${p.plugin})`,
      );
    }
    const instance = await this.states.instance(pack, p.scope, opts.session);
    return await instance.call(
      { pack, scope: p.scope, methods: "all" },
      { method: p.method, input: p.args, callId: p.callId, revision: p.revision, abi: p.abi },
    );
  }

  /** Approves a bot's pending guards (the person at the terminal did) and attaches it. */
  async approve(b: BotState): Promise<void> {
    this.#o.approvals.approve(b.pending);
    b.pending = [];
    b.status = "ready";
    b.program = undefined;
    await this.#attach(b);
  }

  /** Loads every named bot too (for listings and approvals; runs load them on first use). */
  async loadNamed(): Promise<void> {
    for (const b of this.bots()) {
      if (b.spec.attach === "named" && b.status === "ready") await this.#attach(b);
    }
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

/** Pack directories under a `.harness` (or the harness home): `<dir>/packs/*`. */
export function packDirsIn(harnessDir: string): string[] {
  try {
    return [...Deno.readDirSync(join(harnessDir, "packs"))]
      .filter((e) => e.isDirectory)
      .map((e) => join(harnessDir, "packs", e.name))
      .sort();
  } catch {
    return [];
  }
}
