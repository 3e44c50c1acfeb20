/**
 * `hs doctor`: what was discovered, from where, and why anything was skipped.
 * Names, paths and reasons are shown with their control characters as pictures.
 *
 * @module
 */
import type { Command } from "@commander-js/extra-typings";
import type { FrontEnd } from "../../core/mod.ts";
import { ownerLabel } from "../../core/base/mod.ts";
import type { CliContext } from "../base/mod.ts";
import {
  checkProvider,
  type CommandContext,
  confWarnings,
  settingsWarnings,
} from "../harness/mod.ts";
import { colorEnabled, printFloor, sanitizeForTerminal as safe, styles } from "../view/mod.ts";

/** Prints the diagnosis; exit code 0 (problems are reported, not fatal). */
export async function runDoctor(h: FrontEnd, cli: CliContext): Promise<number> {
  const st = styles(colorEnabled(cli.stdoutIsTerminal));
  const out = (s = "") => cli.stdout(s + "\n");
  const snap = h.catalog.snapshot();
  out(st.bold("paths"));
  out(safe(`  cwd        ${h.where.cwd}`));
  out(safe(`  home       ${h.where.home}`));
  out(safe(`  sessions   ${h.where.sessions}`));
  out(safe(`  log        ${h.where.log}`));
  out(st.bold("\nsources (lowest priority first)"));
  if (h.catalog.builtinSource) {
    out(
      `  ${"built-in".padEnd(8)} ${safe(h.catalog.builtinSource)} ${
        st.dim("(generated for HARNESS_SOURCES)")
      }`,
    );
  }
  if (snap.allSources.length === 0) out("  (none: only built-in plugins)");
  for (const s of snap.allSources) {
    const scoped = snap.sources.includes(s) ? "" : st.dim(" (provider plugin, inactive)");
    out(`  ${s.kind.padEnd(8)} ${safe(s.dir)}${scoped}`);
  }
  out(st.bold("\nruntime plugins"));
  for (const p of h.admin.runtimePluginStatus()) {
    out(
      safe(
        `  ${p.id.padEnd(16)} ${p.version.padEnd(8)} ${p.state}${p.reason ? ` — ${p.reason}` : ""}`,
      ),
    );
  }
  await printMcpServers(h, out, st);
  await printClaude(h, out, st);
  out(st.bold("\ntools"));
  const { tools, problems } = await h.catalog.executableToolSchemas(snap);
  const registered = new Map(h.catalog.registeredTools().map((t) => [t.name, t.owner]));
  const names = new Set([...registered.keys(), ...tools.keys()]);
  for (const n of [...names].sort()) {
    const t = tools.get(n);
    const where = t ? t.path : ownerLabel(registered.get(n)!);
    out(`  ${safe(n.padEnd(16))} ${st.dim(safe(where))}`);
  }
  out(st.bold("\nhooks"));
  for (const [stage, m] of snap.hooks) {
    for (const [n, f] of m) out(`  ${safe(`${stage}/${n.padEnd(16)}`)} ${st.dim(safe(f.path))}`);
  }
  if (snap.hooks.size === 0) out("  (built-in only)");
  out(st.bold("\ncommands"));
  for (const [n, f] of snap.commands) out(`  ${safe(n.padEnd(16))} ${st.dim(safe(f.path))}`);
  if (snap.commands.size === 0) out("  (none)");
  out(st.bold("\nproviders"));
  for (const p of await h.catalog.providers(snap)) {
    let ready = "?";
    try {
      const r = await p.provider.ready();
      ready = r.ready ? st.green("ready") : st.dim(safe(`not ready: ${r.reason}`));
    } catch {
      ready = st.red("readiness check failed");
    }
    out(`  ${safe(p.name.padEnd(16))} ${ready} ${st.dim(safe(p.origin))}`);
  }
  const { skills, problems: skillProblems } = h.catalog.skills();
  out(st.bold("\nskills"));
  for (const s of skills) out(`  ${safe(s.name.padEnd(16))} ${st.dim(safe(s.path || s.source))}`);
  if (skills.length === 0) out("  (none)");

  const issues = [
    ...snap.skipped,
    ...problems.map((p) => ({ path: p.path, reason: `tool rejected: ${p.reason}` })),
    ...skillProblems.map((p) => ({ path: p.path, reason: `skill skipped: ${p.reason}` })),
    ...h.catalog.confProblems().map((p) => ({
      path: p.path,
      reason: `provider variant rejected: ${p.reason}`,
    })),
  ];
  const warnings = [...settingsWarnings(h), ...confWarnings(h)];
  out(st.bold("\nconfiguration"));
  if (warnings.length === 0) out("  no unknown keys");
  for (const w of warnings) out(`  ${st.yellow(safe(w))}`);
  out(st.bold("\nskipped"));
  if (issues.length === 0) out("  nothing");
  for (const i of issues) out(`  ${st.yellow(safe(i.path))}\n    ${safe(i.reason)}`);
  out(st.bold("\neffect floor (details: hs floor)"));
  await printFloor(h, out);
  return 0;
}

interface McpServerRow {
  name: string;
  type: string;
  state: string;
  tools: number;
  origin?: string;
  reason?: string;
}

/** The `mcp` plugin's servers (its `mcp` page): each one's state, and why one is not up. */
async function printMcpServers(
  h: FrontEnd,
  out: (s?: string) => void,
  st: ReturnType<typeof styles>,
): Promise<void> {
  const mcp = h.admin.runtimePluginStatus().find((p) => p.id === "mcp");
  if (!mcp || (mcp.state !== "active" && mcp.state !== "degraded")) return;
  let page: { servers?: McpServerRow[]; project?: { file: string; reason: string } };
  try {
    page = await h.admin.pages.read("mcp") as typeof page;
  } catch {
    return;
  }
  out(st.bold("\nmcp servers"));
  if (page.project) out(safe(`  ${page.project.file}: ${page.project.reason}`));
  const servers = page.servers ?? [];
  if (servers.length === 0 && !page.project) out("  (none)");
  for (const s of servers) {
    const state = s.state === "active" ? st.green(`active (${s.tools} tools)`) : st.yellow(s.state);
    const from = st.dim(s.origin ?? "plugins.json");
    out(safe(`  ${s.name.padEnd(16)} ${s.type.padEnd(6)} `) + `${state} ${from}`);
    if (s.reason) out(safe(`    ${s.reason}`));
  }
}

interface ClaudePage {
  untrusted: string[];
  instructions: string[];
  skillRoots: string[];
  commands: { name: string; path: string; problem: string | null }[];
  agents: { name: string; path: string; problem: string | null }[];
  hooks: { event: string; matcher: string; command: string; file: string }[];
  rules: { verdict: string; rule: string; source: string }[];
  unused: { path: string; reason: string }[];
}

/** The Claude Code project's files hs reads (the `claude-code` plugin's page). */
async function printClaude(
  h: FrontEnd,
  out: (s?: string) => void,
  st: ReturnType<typeof styles>,
): Promise<void> {
  const p = h.admin.runtimePluginStatus().find((x) => x.id === "claude-code");
  if (!p || p.state !== "active") return;
  let page: ClaudePage;
  try {
    page = await h.admin.pages.read("claude-code") as unknown as ClaudePage;
  } catch {
    return;
  }
  const rows: [string, string, string][] = [
    ...page.untrusted.map((d): [string, string, string] => [
      "untrusted",
      d,
      "not trusted: run hs trust",
    ]),
    ...page.instructions.map((f): [string, string, string] => ["instructions", f, ""]),
    ...page.skillRoots.map((f): [string, string, string] => ["skills", f, ""]),
    ...page.commands.map((c): [string, string, string] => [
      "command",
      `/${c.name}`,
      c.problem ?? c.path,
    ]),
    ...page.agents.map((a): [string, string, string] => [
      "agent",
      a.name,
      a.problem ? `${a.path}: ${a.problem}` : a.path,
    ]),
    ...page.hooks.map((x): [string, string, string] => [
      "hook",
      `${x.event} ${x.matcher || "*"}`,
      `${x.command} (${x.file})`,
    ]),
    ...page.rules.map((
      r,
    ): [string, string, string] => ["rule", `${r.verdict} ${r.rule}`, r.source]),
  ];
  if (rows.length === 0 && page.unused.length === 0) return;
  out(st.bold("\nclaude code (CLAUDE.md, .claude/)"));
  for (const [kind, what, where] of rows) {
    out(safe(`  ${kind.padEnd(12)} ${what} `) + st.dim(safe(where)));
  }
  for (const u of page.unused) {
    out(`  ${st.yellow(safe("not used".padEnd(12)))} ${safe(u.reason)} ${st.dim(safe(u.path))}`);
  }
}

/** Registers `hs doctor`. */
export function register(program: Command, ctx: CommandContext): void {
  program.command("doctor").description(
    "explain what was discovered, and why something was skipped",
  )
    .option("--trust-workspace", "include this workspace's executables")
    .option("--provider [name]", "only send one check request to the provider (default: resolved)")
    .action(async (o) => {
      const { provider, ...flags } = o;
      if (provider === undefined) return await ctx.run(flags, (h) => runDoctor(h, ctx.cli));
      await ctx.run(flags, async (h) => {
        const r = await checkProvider(h, provider === true ? undefined : provider);
        ctx.cli.stdout(safe(r.line) + "\n");
        if (!r.ok && r.hint) ctx.cli.stderr(`hint: ${safe(r.hint)}\n`);
        return r.ok ? 0 : 1;
      });
    });
}
