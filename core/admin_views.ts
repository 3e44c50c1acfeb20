/**
 * Two views {@link Admin} hands a front end: the effect floor as `/permissions`, `hs floor`,
 * `hs doctor` and `/context` read it ({@link FloorView}), and workspace trust as the trust
 * question answers it ({@link TrustAdmin}: a workspace trusted now, or the control files a
 * run changed accepted, and what this harness then loads again).
 *
 * @module
 */
import type { SandboxProbe } from "./sandbox/mod.ts";
import type { EffectFloor, Rule } from "./guards/mod.ts";
import {
  type ChangedControl,
  clearRunChanges,
  type McpApproval,
  pendingRunChanges,
  type ProjectMcpServer,
  type RunChange,
  type TrustStore,
} from "./trust/mod.ts";

/** The effect floor of a harness, as a front end shows it and adds session rules to. */
export class FloorView {
  #f: EffectFloor;

  /** The view over `floor`. */
  constructor(floor: EffectFloor) {
    this.#f = floor;
  }

  /** The preset the policy starts from. */
  get preset(): string {
    return this.#f.preset;
  }

  /** The effective policy with the layer behind each effect. */
  get resolved(): EffectFloor["resolved"] {
    return this.#f.resolved;
  }

  /** The permission rules, in order. */
  get rules(): readonly Rule[] {
    return this.#f.rules;
  }

  /** True when the policy grants less than the process holds (children need the OS sandbox). */
  get narrower(): boolean {
    return this.#f.narrower;
  }

  /** Why the file tools could not work in this process, if they could not. */
  get fileToolsFailure(): string | undefined {
    return this.#f.fileToolsFailure;
  }

  /** The OS sandbox child processes run in (a front end's own children too). */
  get sandbox(): EffectFloor["sandbox"] {
    return this.#f.sandbox;
  }

  /** File access as the file tools get it (within the policy). */
  get fs(): EffectFloor["effects"]["fs"] {
    return this.#f.effects.fs;
  }

  /** Every rule, the ones added for this session included. */
  allRules(): readonly Rule[] {
    return this.#f.allRules();
  }

  /** Adds an allow rule for this process (`/permissions allow`); throws on a bad rule. */
  allowForSession(text: string): Rule {
    return this.#f.allowForSession(text);
  }

  /** The policy, one line per part (`hs floor`). */
  describe(): string[] {
    return this.#f.describe();
  }

  /** Whether the OS sandbox works here. */
  probe(): Promise<SandboxProbe> {
    return this.#f.sandbox.probe();
  }
}

/** What trusting reaches besides the store: discovery and the packs load again. */
export interface TrustAdminInit {
  store: TrustStore;
  /** `$HARNESS_HOME` and the working directory. */
  home: string;
  cwd: string;
  /** Discovery reads the walk again (a trusted source counts now). */
  invalidate(): void;
  /** The packs load again (those of a workspace trusted now belong to this run). */
  reloadPacks(): Promise<void>;
  /** Sets plugin `id` up again (the `mcp` plugin, once servers are approved). */
  reloadPlugin(id: string): Promise<boolean>;
}

/** Workspace trust, as the trust question of a front end reads and answers it. */
export class TrustAdmin {
  #o: TrustAdminInit;

  /** The view over the trust store. */
  constructor(init: TrustAdminInit) {
    this.#o = init;
  }

  /** Trusted sources whose control files changed since they were trusted. */
  changed(): ChangedControl[] {
    return this.#o.store.changed();
  }

  /** Control files earlier runs of the agent changed here, waiting for the user. */
  pendingRunChanges(): RunChange[] {
    return pendingRunChanges(this.#o.home, this.#o.cwd);
  }

  /** Trusts workspaces (and their `.harness/` directories) now; this harness loads them. */
  async trust(workspaces: string[], harnessDirs: string[]): Promise<void> {
    await this.#o.store.trust(workspaces, harnessDirs);
    await this.#reload();
  }

  /**
   * Accepts what runs changed: the workspaces trusted again with their `.harness/`
   * directories, the changes cleared and released; this harness loads them.
   */
  async acceptRunChanges(workspaces: string[], harnessDirs: string[]): Promise<void> {
    await this.#o.store.trust(workspaces, harnessDirs);
    clearRunChanges(this.#o.home, workspaces);
    this.#o.store.release(harnessDirs);
    await this.#reload();
  }

  /** Whether a source directory (a `.harness/`) is trusted. */
  isTrusted(dir: string): boolean {
    return this.#o.store.isTrusted(dir);
  }

  /** Where `.mcp.json` server `server` of `workspace` stands: approved, changed or new. */
  mcpStatus(
    workspace: string,
    server: Pick<ProjectMcpServer, "name" | "hash">,
  ): McpApproval {
    return this.#o.store.mcp.status(workspace, server);
  }

  /** Approves `.mcp.json` servers by name and sets the `mcp` plugin up again: they start now. */
  async approveMcp(workspace: string, servers: ProjectMcpServer[]): Promise<void> {
    this.#o.store.mcp.approve(workspace, servers);
    await this.#o.reloadPlugin("mcp");
  }

  async #reload(): Promise<void> {
    this.#o.invalidate();
    await this.#o.reloadPacks();
  }
}
