/**
 * The Claude Code layout as hs sources: one object built per harness from the
 * walk ({@link ClaudeLayout}), handing each concept to the hs registry that
 * already does that job — `CLAUDE.md` as a prompt section, `.claude/skills` as
 * skill roots, `hooks` as stage hooks and a loop-end addendum, `permissions` as
 * narrowing floor rules, commands and agents as lists the REPL and the `agent`
 * tool read. Registered as the built-in runtime plugin `claude-code` (its page
 * `claude-code` is what `hs doctor` lists).
 *
 * @module
 */
import { join } from "../../early/mod.ts";
import { dirEntries, type Json, loadYaml, statOrUndefined } from "../../base/mod.ts";
import type { RuntimePlugin } from "../../plugins/mod.ts";
import type { LoopEndInfo } from "../../loop/mod.ts";
import { type ClaudeAgent, claudeAgents } from "./agents.ts";
import { type ClaudeCommand, claudeCommands, commandPrompt } from "./commands.ts";
import type { HookRunDeps } from "./hook_run.ts";
import { claudeHooks } from "./hooks.ts";
import { cachedFile, ClaudeLayout, type ClaudeLayoutOptions, markdownFiles } from "./layout.ts";
import { claudePermissions } from "./permissions.ts";
import { readSettings } from "./settings.ts";

/** The id of the built-in plugin (and of its page). */
export const CLAUDE_PLUGIN_ID = "claude-code";

/** The Claude Code compatibility of one harness. */
export class ClaudeCompat {
  /** Where the files are. */
  readonly layout: ClaudeLayout;
  #hooks?: ReturnType<typeof claudeHooks>;
  /** True while the `claude-code` plugin is set up (plugins.json may disable it). */
  #active = false;

  /** Creates it for a working directory. */
  constructor(opts: ClaudeLayoutOptions) {
    this.layout = new ClaudeLayout(opts);
  }

  /** The `CLAUDE.md` files' text, global → local, joined with blank lines. */
  instructions(): string {
    const parts = this.layout.current().instructions
      .map((f) => cachedFile(f, "claude-md", (t) => t.replace(/\n+$/, "")) ?? "")
      .filter((t) => t.trim() !== "");
    const agents = this.agents().filter((a) => a.description);
    if (agents.length) {
      parts.push(
        'Named agents you can start with the `agent` tool (`bot: "<name>"`):\n' +
          agents.map((a) => `- ${a.name}: ${a.description}`).join("\n"),
      );
    }
    return parts.join("\n\n");
  }

  /** `.claude/skills` roots, lowest first. */
  skillRoots(): string[] {
    return this.#active ? this.layout.current().skillRoots : [];
  }

  /** The slash commands. */
  commands(): ClaudeCommand[] {
    return this.#active ? claudeCommands(this.layout) : [];
  }

  /** Runs a `!command` line through the seam (set by the harness once its seam exists). */
  shell?: (command: string, session?: string) => Promise<string>;

  /** A slash command's prompt (`!` lines run through the seam), or undefined: no such command. */
  async expandCommand(name: string, args: string, session?: string): Promise<string | undefined> {
    const c = this.commands().find((x) => x.name === name);
    if (!c) return undefined;
    const run = this.shell ??
      (() => Promise.resolve("error: commands cannot run shell lines here"));
    return await commandPrompt(c, args, (command) => run(command, session));
  }

  /** The named sub-agents. */
  agents(): ClaudeAgent[] {
    return this.#active ? claudeAgents(this.layout) : [];
  }

  /** The deny / ask rules for the floor (they only narrow). */
  permissions(): ReturnType<typeof claudePermissions> {
    return claudePermissions(this.layout);
  }

  /** The `Stop` hooks, as a loop-end addendum (attach the hooks first). */
  stop = (info: LoopEndInfo): Promise<string | undefined> =>
    this.#hooks && this.#active ? this.#hooks.stop(info) : Promise.resolve(undefined);

  /** Gives the hooks what they run with (the child environment, the sandbox, the log). */
  attach(deps: HookRunDeps): void {
    this.#hooks = claudeHooks(this.layout, deps);
  }

  /** The untrusted project directories, each with what it would load (for the trust question). */
  untrusted(): { dir: string; holds: string[] }[] {
    if (!this.#active) return [];
    return this.layout.current().untrusted.map((dir) => ({ dir, holds: holdings(dir) }));
  }

  /** What was found, for `hs doctor` (the plugin's page). */
  listing(): Json {
    const snap = this.layout.current();
    const settings = snap.settingsFiles.map((f) => readSettings(f));
    const perms = this.permissions();
    return {
      places: snap.places.map((p) => ({ scope: p.scope, dir: p.root })),
      untrusted: snap.untrusted,
      instructions: snap.instructions,
      skillRoots: snap.skillRoots,
      commands: this.commands().map((c) => ({
        name: c.name,
        path: c.path,
        problem: c.problem ?? null,
      })),
      agents: this.agents().map((a) => ({
        name: a.name,
        path: a.path,
        problem: a.problem ?? null,
      })),
      hooks: settings.flatMap((s) =>
        (s?.hooks ?? []).map((h) => ({
          event: h.event,
          matcher: h.matcher,
          command: h.command,
          file: h.file,
        }))
      ),
      rules: perms.rules.map((r) => ({ verdict: r.verdict, rule: r.text, source: r.source })),
      unused: [
        ...perms.unused.map((u) => ({ path: u.file, reason: `${u.rule}: ${u.reason}` })),
        ...settings.flatMap((s) => (s?.problems ?? []).map((p) => ({ path: s!.file, reason: p }))),
      ],
    } as unknown as Json;
  }

  /** The built-in plugin: the prompt section, the stage hooks and the page. */
  plugin(): RuntimePlugin {
    return {
      id: CLAUDE_PLUGIN_ID,
      version: "1.0.0",
      apiVersion: 1,
      setup: async (ctx) => {
        this.#active = true;
        const snap = this.layout.current();
        // commands' and agents' frontmatters are YAML: its reader loads only when there are some
        if (markdownFiles([...snap.commandDirs, ...snap.agentDirs]).size) await loadYaml();
        ctx.onDispose(() => {
          this.#active = false;
        });
        ctx.prompts.register({ id: "claude-md", order: 90, render: () => this.instructions() });
        for (const h of this.#hooks?.stageHooks ?? []) ctx.hooks.register(h);
        ctx.pages.register({
          id: CLAUDE_PLUGIN_ID,
          title: "Claude Code project",
          description: "CLAUDE.md, .claude/ skills, commands, agents, hooks and permissions",
          read: () => this.listing(),
        });
      },
    };
  }
}

/** What a project directory's Claude Code files would load, one entry per kind. */
function holdings(dir: string): string[] {
  const out: string[] = [];
  if (statOrUndefined(join(dir, "CLAUDE.md"))?.isFile) out.push("CLAUDE.md");
  const e = dirEntries(join(dir, ".claude"));
  if (!e) return out;
  for (const f of ["settings.json", "settings.local.json"]) {
    if (!e.files.has(f)) continue;
    const hooks = readSettings(join(dir, ".claude", f))?.hooks.length ?? 0;
    out.push(`.claude/${f}${hooks ? ` (${hooks} hook${hooks > 1 ? "s" : ""})` : ""}`);
  }
  for (const d of ["commands", "agents", "skills"]) {
    const n = dirEntries(join(dir, ".claude", d))?.names.length ?? 0;
    if (n) out.push(`.claude/${d}/ (${n})`);
  }
  return out;
}
