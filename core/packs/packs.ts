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
import { join } from "node:path";
import type { Json, Owner, PromptSource, ToolDefinition } from "../base/mod.ts";
import type { Guard, Hook, PolicyPlaces } from "../guards/mod.ts";
import { type BotSpec, readBot } from "./bots.ts";
import type { GuardApprovals, GuardConsent } from "./consent.ts";
import { type PackError, type PackManifest, readPack } from "./manifest.ts";

/** What a program offers the seam once loaded. */
export interface BehaviorProgram {
  guards: Guard[];
  hooks: Hook[];
  /** Model tools of the program (`define/tool` 'tool or 'both). */
  tools: ToolDefinition[];
  /** Each guard's consent record. */
  consent: Omit<GuardConsent, "pack" | "bot">[];
  /** Runs `validate/configuration`; the problem, if any. */
  validateConfiguration(): Promise<string | undefined>;
}

/** Everything a program needs to load for one bot. */
export interface ProgramRequest {
  file: string;
  root: string;
  configuration: Json;
  pack: string;
  bot: string;
  /** The agents the bot's behavior applies to. */
  appliesTo(principal: string): boolean;
  places: PolicyPlaces;
  log(text: string): void;
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
  spec: BotSpec;
  pack: PackManifest;
  status: BotStatus;
  /** Why it is not attached (load errors and problems, with file:line:col). */
  reason?: string;
  /** Guards waiting for approval. */
  pending: GuardConsent[];
  program?: BehaviorProgram;
  /** The principal its behavior applies to ("main" for the foreground bot). */
  principal: string;
}

/** A pack as listed by `hs packs`. */
export interface PackState {
  dir: string;
  source: string;
  manifest?: PackManifest;
  /** Why the pack did not load. */
  error?: string;
  bots: BotState[];
}

/** Options of {@link Packs}. */
export interface PacksOptions {
  /** Pack directories with where they came from, lowest priority first. */
  dirs(): { dir: string; source: string }[];
  /** `$HARNESS_HOME/plugin-data` (for `${PLUGIN_DATA}`). */
  dataDir: string;
  approvals: GuardApprovals;
  loader?: ProgramLoader;
  places: PolicyPlaces;
  /** Packs whose foreground bot the user opted out of (`plugins.<name>.foreground: false`). */
  foregroundOff: ReadonlySet<string>;
  log(line: string): void;
}

/** The principal a named bot runs as. */
export function botPrincipal(name: string): string {
  return `bot:${name}`;
}

/** The behavior packs of a harness. */
export class Packs {
  #o: PacksOptions;
  #packs: PackState[] = [];

  constructor(opts: PacksOptions) {
    this.#o = opts;
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
  }

  /** Loads a bot's program and checks its configuration and guard approvals. */
  async #attach(b: BotState): Promise<void> {
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
        appliesTo: (p) => p === principal,
        places: this.#o.places,
        log: (t) => this.#o.log(`[pack ${b.pack.name}/${b.spec.name}] ${t}`),
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

  /** Guards of attached bots. */
  guards(): Guard[] {
    return this.#attached().flatMap((b) => b.program!.guards);
  }

  /** Hooks of attached bots. */
  hooks(): Hook[] {
    return this.#attached().flatMap((b) => b.program!.hooks);
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
