/**
 * The behavior packs as a front end reads them (`hs packs`, the REPL's pack commands, the web
 * view's Plugins page, `hs acp`'s consent): the packs and their bots, the approval of their
 * guards, their commands, their states. A view over {@link Packs}: what runs use of the
 * packs (binding, outbound events, settling, loading) stays with the harness.
 *
 * @module
 */
import {
  HarnessError,
  type Json,
  type Owner,
  type PromptSource,
  type ToolDefinition,
} from "./base/mod.ts";
import { type PackTestReport, type PackTestRequest, runPackTest } from "./pack_test.ts";
import type {
  BotState,
  PackCommand,
  Packs,
  PackState,
  SessionAction,
  SessionRef,
  StateInstance,
} from "./packs/mod.ts";

type Place = Parameters<Packs["evaluateCommand"]>[1];
type Evaluated = Awaited<ReturnType<Packs["evaluateCommand"]>>;

/** The packs of a harness, as front ends list, approve and command them. */
export class PacksView {
  #p: Packs;

  /** The view over `packs`. */
  constructor(packs: Packs) {
    this.#p = packs;
  }

  /**
   * Tests pack `pack` (its name) against recorded model turns in a throwaway HARNESS_HOME and
   * workspace copy (see core/pack_test.ts); writes nothing else.
   */
  test(
    pack: string,
    req: Omit<PackTestRequest, "pack">,
  ): Promise<PackTestReport> {
    const all = this.#p.list();
    const p = all.find((s) => (s.manifest?.name ?? s.dir.split("/").at(-1)) === pack);
    if (!p) {
      const names = all.map((s) => s.manifest?.name ?? s.dir).join(", ") || "none";
      throw new HarnessError(
        `no pack named ${pack}`,
        `packs found: ${names} (a workspace's packs need a trusted workspace or --trust-workspace)`,
      );
    }
    return runPackTest({ ...req, pack: { name: pack, dir: p.dir } });
  }

  /** Every pack, with its bots and problems. */
  list(): PackState[] {
    return this.#p.list();
  }

  /** Every bot of every pack (a bot's `pending` guards wait for approval). */
  bots(): BotState[] {
    return this.#p.bots();
  }

  /** Loads every named bot too (for listings and approvals; runs load them on first use). */
  loadNamed(): Promise<void> {
    return this.#p.loadNamed();
  }

  /** Approves a bot's pending guards (the person at the front end did) and attaches it. */
  approve(b: BotState): Promise<void> {
    return this.#p.approve(b);
  }

  /**
   * The person declined a bot's waiting guards ("not now"): the main agent runs without it in
   * this harness; unasked, an unapproved foreground guard refuses the run (a load error).
   */
  decline(b: BotState): void {
    this.#p.decline(b);
  }

  /** The commands of every pack (a more local pack's command wins by name). */
  commands(): { commands: PackCommand[]; problems: string[] } {
    return this.#p.commands();
  }

  /** Evaluates a pack command's body: its view (see {@link Packs.evaluateCommand}). */
  evaluateCommand(name: string, place: Place = {}): Promise<Evaluated> {
    return this.#p.evaluateCommand(name, place);
  }

  /** Performs a command's leaf (see {@link Packs.perform}). */
  perform(
    pack: string,
    action: SessionAction,
    place: Place = {},
  ): Promise<{ result?: Json; message?: string }> {
    return this.#p.perform(pack, action, place);
  }

  /** The `plugin/method` session verb of a command of `pack`. */
  pluginMethod(pack: string, params: { [k: string]: Json }, place: Place = {}): Promise<Json> {
    return this.#p.pluginMethod(pack, params, place);
  }

  /** A pack state of a scope (a session-scope state needs its session). */
  state(
    pack: string,
    scope: "session" | "project" | "global",
    session?: SessionRef,
  ): Promise<StateInstance> {
    return this.#p.states.instance(pack, scope, session);
  }

  /**
   * A session was rewound: its session states are read again from its files, and the main
   * agent's private states go back to the revisions `revisions` recorded (to 0 when the
   * turn recorded none).
   */
  rewound(sessionDir: string, revisions?: Record<string, number>): void {
    this.#p.states.forgetSession(sessionDir);
    const to = revisions ??
      Object.fromEntries(Object.keys(this.#p.privateRevisions("main")).map((k) => [k, 0]));
    this.#p.states.rollbackPrivate(to);
  }

  /** The prompt of the bot an agent runs as (the foreground bot's for "main"). */
  prompt(principal: string): PromptSource | undefined {
    return this.#p.prompt(principal);
  }

  /** Model tools of attached bots, each with its owner and the agent it belongs to. */
  tools(): { def: ToolDefinition; owner: Owner; principal: string }[] {
    return this.#p.tools();
  }

  /** The tools an agent may use (its bot's `tools` list), or undefined for no ceiling. */
  ceiling(principal: string): ReadonlySet<string> | undefined {
    return this.#p.ceiling(principal);
  }
}
