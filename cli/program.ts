/**
 * The `hs` command line: built-in commands (PROTOCOLS "Commands and CLI"),
 * executable `commands/`, and `hs <words…>` as a message to the agent.
 *
 * @module
 */
import { Command, CommanderError } from "@commander-js/extra-typings";
import { join, resolve } from "node:path";
import type { HarnessCore, HarnessOptions, RunResult } from "../core/harness.ts";
import { HarnessError } from "../core/base/errors.ts";
import type { HarnessEvent } from "../core/base/types.ts";
import { VERSION } from "../core/base/version.ts";
import { versionLine } from "../core/base/build_info.ts";
import { runExecutable } from "../core/exec/exec.ts";
import { cancelOnInterrupt } from "./interrupt.ts";
import { statOrUndefined } from "../core/base/fsutil.ts";
import { Session } from "../core/session/session.ts";
import { walkHarnessDirs } from "../core/discovery/discovery.ts";
import { resolvePaths } from "../core/base/paths.ts";
import { colorEnabled, styles, TranscriptRenderer } from "./render.ts";
import type { CliContext } from "./context.ts";
import { runDoctor } from "./doctor.ts";
import { runRepl } from "./repl.ts";
import { addFloorFlags, floorCommand, type FloorFlags, floorRequestOf } from "./floor.ts";
import { registerProvidersCommand, type WithHarness } from "./providers.ts";
import { registerAuthCommand } from "./auth.ts";

const BUILTIN = new Set([
  "agent",
  "repl",
  "resume",
  "session",
  "tools",
  "hooks",
  "skills",
  "doctor",
  "floor",
  "trust",
  "help",
  "version",
  "scheme",
  "providers",
  "auth",
]);

const KNOWN_STAGES = [
  "resolve",
  "start",
  "assemble",
  "send",
  "receive",
  "tool_exec",
  "tool_done",
  "done",
  "error",
];

/** Options shared by the commands that run the agent. */
type AgentFlags = {
  provider?: string;
  model?: string;
  json?: boolean;
  events?: boolean;
  transcript?: boolean;
  trustWorkspace?: boolean;
} & FloorFlags;

function addAgentFlags<A extends unknown[]>(cmd: Command<A>): Command<A, AgentFlags> {
  return (addFloorFlags(cmd) as unknown as Command<A>)
    .option("-p, --provider <name>", "provider or .conf variant to use (see: hs providers)")
    .option("-m, --model <name>", "model to use")
    .option("--json", "print the final answer, usage and session id as one JSON object")
    .option("--events", "print canonical events as JSON lines on stdout")
    .option("--transcript", "show the streamed transcript even when stdout is not a terminal")
    .option(
      "--trust-workspace",
      "load this workspace's .harness/ executables for this run",
    ) as unknown as Command<
      A,
      AgentFlags
    >;
}

/** Parses argv and runs; resolves to the exit code. */
export async function runCli(argv: string[], cli: CliContext): Promise<number> {
  try {
    return await dispatch(argv, cli);
  } catch (err) {
    return reportError(err, cli);
  }
}

function reportError(err: unknown, cli: CliContext): number {
  if (err instanceof CommanderError) return err.exitCode;
  if (err instanceof HarnessError) {
    cli.stderr(`hs: ${err.message}\n`);
    if (err.hint) cli.stderr(`hint: ${err.hint}\n`);
    return err.exitCode || 1;
  }
  cli.stderr(`hs: ${(err as Error)?.message ?? String(err)}\n`);
  return 1;
}

async function dispatch(argv: string[], cli: CliContext): Promise<number> {
  const first = argv[0];
  if (first === "--version" || first === "-v") return version(cli);
  if (first === "--help" || first === "-h") argv = ["help", ...argv.slice(1)];
  if (first !== undefined && !first.startsWith("-") && !BUILTIN.has(first)) {
    const code = await tryExecutableCommand(first, argv.slice(1), cli);
    if (code !== undefined) return code;
    argv = ["agent", ...argv];
  } else if (
    first === undefined || (first.startsWith("-") && first !== "--help" && first !== "-h")
  ) {
    argv = [cli.stdinIsTerminal ? "repl" : "agent", ...argv];
  }

  const program = new Command("hs")
    .description(
      "hs — an LLM agent harness you extend with executables, TypeScript plugins and Scheme",
    )
    .version(VERSION, "-v, --version")
    .exitOverride()
    .configureOutput({ writeOut: (s) => cli.stdout(s), writeErr: (s) => cli.stderr(s) })
    .showHelpAfterError("(run `hs help` for the commands)");
  let code = 0;

  addAgentFlags(
    program.command("agent").description("run the agent headless: hs agent [session-id] <message…>")
      .argument("[words...]", "optional session id, then the message (or pipe it on stdin)"),
  ).action(async (words, flags) => {
    code = await agentCommand(words, flags, cli);
  });

  addAgentFlags(
    program.command("repl").description("interactive session (the default on a terminal)")
      .argument("[session-id]", "resume this session"),
  ).action(async (id, flags) => {
    code = await withHarness(
      cli,
      { ...flags, interactive: cli.stdinIsTerminal },
      (h) => runRepl(h, cli, { session: id, ...flags }),
    );
  });

  addAgentFlags(
    program.command("resume").description("continue the latest session (REPL, or one message)")
      .argument("[words...]", "a message to send"),
  ).action(async (words, flags) => {
    const paths = resolvePaths(Deno.env.toObject(), Deno.cwd());
    const { listSessions } = await import("../core/session/session.ts");
    const latest = listSessions(paths.sessions)[0];
    if (!latest) throw new HarnessError("no session to resume", "start one with: hs <message>");
    if (words.length === 0 && cli.stdinIsTerminal) {
      code = await withHarness(
        cli,
        { ...flags, interactive: true },
        (h) => runRepl(h, cli, { session: latest, ...flags }),
      );
    } else code = await agentCommand([latest, ...words], flags, cli);
  });

  const session = program.command("session").description("list and inspect sessions");
  session.command("list").description("list sessions, newest first").option(
    "-n, --limit <n>",
    "how many",
    "20",
  )
    .action((o) => {
      const paths = resolvePaths(Deno.env.toObject(), Deno.cwd());
      code = sessionList(paths.sessions, Number.parseInt(o.limit, 10) || 20, cli);
    });
  session.command("show").description("print a session's messages").argument("<id>")
    .action((id) => {
      const paths = resolvePaths(Deno.env.toObject(), Deno.cwd());
      code = sessionShow(paths.sessions, id, cli);
    });
  session.command("dir").description("print a session's directory (latest by default)").argument(
    "[id]",
  )
    .action(async (id) => {
      const paths = resolvePaths(Deno.env.toObject(), Deno.cwd());
      const { listSessions } = await import("../core/session/session.ts");
      const sid = id ?? listSessions(paths.sessions)[0];
      if (!sid) throw new HarnessError("no sessions yet", "start one with: hs <message>");
      const dir = join(paths.sessions, sid);
      if (!statOrUndefined(join(dir, "session.conf"))) {
        throw new HarnessError(
          `no session "${sid}" in ${paths.sessions}`,
          "list them with: hs session list",
        );
      }
      cli.stdout(dir + "\n");
    });

  program.command("tools").description("list the tools the model can call, and rejected ones")
    .option("--trust-workspace", "include this workspace's executables")
    .action(async (o) => {
      code = await withHarness(cli, o, (h) => toolsCommand(h, cli));
    });

  program.command("hooks").description("list hooks per stage (built-in and executable)")
    .argument("[stage]", "only this stage")
    .option("--trust-workspace", "include this workspace's executables")
    .action(async (stage, o) => {
      code = await withHarness(cli, o, (h) => Promise.resolve(hooksCommand(h, stage, cli)));
    });

  program.command("skills").description("list skills (the catalog the model sees)")
    .option("--trust-workspace", "include this workspace's sources")
    .action(async (o) => {
      code = await withHarness(cli, o, (h) => {
        const { skills, problems } = h.skills();
        const st = styles(colorEnabled(cli.stdoutIsTerminal));
        for (const s of skills.sort((a, b) => (a.name < b.name ? -1 : 1))) {
          cli.stdout(
            `${st.bold(s.name.padEnd(24))} ${s.description}\n${
              st.dim(`  ${s.path || s.source}`)
            }\n`,
          );
        }
        for (const p of problems) cli.stdout(st.yellow(`skipped ${p.path}: ${p.reason}\n`));
        if (skills.length === 0) cli.stdout("no skills found\n");
        return Promise.resolve(0);
      });
    });

  program.command("doctor").description(
    "explain what was discovered, and why something was skipped",
  )
    .option("--trust-workspace", "include this workspace's executables")
    .action(async (o) => {
      code = await withHarness(cli, o, (h) => runDoctor(h, cli));
    });

  addFloorFlags(
    program.command("floor").description(
      "show the effect floor: what tools may read, write, reach, run and see, and why",
    ).option("--trust-workspace", "count this workspace's allow rules"),
  ).action(async (o) => {
    code = await withHarness(
      cli,
      o as FloorFlags & { trustWorkspace?: boolean },
      (h) => floorCommand(h, cli),
    );
  });

  program.command("trust").description(
    "trust a workspace's .harness/ executables (stored in HARNESS_HOME)",
  )
    .argument("[path]", "workspace directory", ".")
    .option("--list", "list trusted workspaces")
    .action(async (path, o) => {
      code = await trustCommand(resolve(path), o.list === true, cli);
    });

  const withH: WithHarness = async (flags, fn) => {
    code = await withHarness(cli, flags, fn);
  };
  registerProvidersCommand(program, cli, withH);
  registerAuthCommand(program, cli, withH);

  program.command("version").description("print the version").action(() => {
    code = version(cli);
  });

  program.command("scheme").description(
    "run a Scheme file, or a REPL / form-by-form evaluation of stdin",
  )
    .argument("[file]").allowExcessArguments(true)
    .action(async (file) => {
      if (!cli.scheme) throw new HarnessError("the Scheme runtime is not available in this build");
      code = await cli.scheme(file ? [file] : []);
    });

  program.command("help").description("show help, the executable commands and the tools")
    .argument("[command]")
    .action(async (name) => {
      if (name && BUILTIN.has(name)) {
        const c = program.commands.find((x) => x.name() === name);
        cli.stdout(c?.helpInformation() ?? "");
        return;
      }
      cli.stdout(program.helpInformation());
      cli.stdout(
        "\nUsage: hs <message…>        run the agent on a message (any unknown first word starts one)\n" +
          "       hs <session-id> <msg>  continue a session\n       echo msg | hs          message on stdin\n",
      );
      const paths = resolvePaths(Deno.env.toObject(), Deno.cwd());
      const cmds = await executableCommands(paths.cwd, paths.home, cli, false);
      if (cmds.size > 0) {
        cli.stdout("\nCommands from .harness/commands:\n");
        for (const [n, p] of cmds) {
          const r = await runExecutable(p, {
            args: ["--describe"],
            env: Deno.env.toObject() as Record<string, string>,
            cwd: paths.cwd,
            timeoutMs: 5000,
          });
          cli.stdout(`  ${n.padEnd(20)} ${r.code === 0 ? r.stdout.trim().split("\n")[0] : ""}\n`);
        }
      }
      cli.stdout("\nDocs: README.md and docs/ in the repository.\n");
    });

  await program.parseAsync(argv, { from: "user" });
  return code;
}

function version(cli: CliContext): number {
  cli.stdout(`hs ${versionLine(VERSION)}\n`);
  return 0;
}

/** Creates a harness for a command, asking for trust on a terminal. */
async function withHarness(
  cli: CliContext,
  flags: { trustWorkspace?: boolean; interactive?: boolean } & FloorFlags,
  fn: (h: HarnessCore) => Promise<number>,
): Promise<number> {
  const opts: HarnessOptions = {
    trustWorkspace: flags.trustWorkspace === true,
    floorRequest: floorRequestOf(flags, cli, flags.interactive === true),
  };
  const h = await cli.createHarness(opts);
  try {
    handleTrust(h, cli);
    return await fn(h);
  } finally {
    await h.close();
  }
}

/** Lists untrusted sources and, on a terminal, asks to trust them. */
function handleTrust(h: HarnessCore, cli: CliContext): void {
  const untrusted = h.snapshot().untrusted;
  if (untrusted.length === 0) return;
  if (cli.stdinIsTerminal && !Deno.env.get("HARNESS_NO_TRUST_PROMPT")) {
    cli.stderr("This workspace has .harness/ executables that would run on your machine:\n");
    for (const d of untrusted) {
      cli.stderr(`  ${d}\n`);
      for (const sub of ["tools", "hooks.d", "commands", "providers", "plugins"]) {
        const p = join(d, sub);
        if (statOrUndefined(p)?.isDirectory) {
          const names = [...Deno.readDirSync(p)].map((e) => e.name).sort();
          if (names.length) cli.stderr(`    ${sub}/: ${names.join(", ")}\n`);
        }
      }
    }
    const answer = prompt("Trust and load them? [y/N]") ?? "";
    if (/^y(es)?$/i.test(answer.trim())) {
      h.trust.trust(untrusted.map((d) => d.replace(/\/\.harness$/, "")));
      h.discovery.invalidate();
      return;
    }
  }
  for (const d of untrusted) {
    cli.stderr(
      `hs: skipping untrusted ${d} (trust it with: hs trust ${d.replace(/\/\.harness$/, "")})\n`,
    );
  }
}

async function agentCommand(words: string[], flags: AgentFlags, cli: CliContext): Promise<number> {
  const paths = resolvePaths(Deno.env.toObject(), Deno.cwd());
  let sessionId: string | undefined;
  if (
    words.length > 0 && /^[\w.-]+$/.test(words[0]) &&
    statOrUndefined(join(paths.sessions, words[0], "session.conf"))
  ) {
    sessionId = words[0];
    words = words.slice(1);
  }
  let message = words.join(" ");
  if (!message && !cli.stdinIsTerminal) {
    message = (await new Response(Deno.stdin.readable).text()).trim();
  }
  if (!message) {
    if (sessionId && cli.stdinIsTerminal) {
      return await withHarness(
        cli,
        flags,
        (h) => runRepl(h, cli, { session: sessionId, ...flags }),
      );
    }
    throw new HarnessError(
      "no message given",
      "usage: hs [session-id] <message…>   or   echo message | hs",
    );
  }
  return await withHarness(cli, flags, async (h) => {
    const controller = new AbortController();
    const stopListening = cancelOnInterrupt(
      controller,
      () => cli.stderr("\ncancelling… (Ctrl-C again to quit)\n"),
    );
    const live = !flags.json && !flags.events &&
      (cli.stdoutIsTerminal || flags.transcript === true);
    const renderer = live
      ? new TranscriptRenderer(cli.stdout, styles(colorEnabled(cli.stdoutIsTerminal)))
      : undefined;
    const onEvent = (e: HarnessEvent) => {
      if (flags.events) cli.stdout(JSON.stringify(e) + "\n");
      renderer?.on(e);
      if (e.type === "session" && !sessionId && !flags.json && !flags.events) {
        cli.stderr(`session: ${e.dir}\n`);
      }
      if (e.type === "retry" && !live && !flags.events) {
        cli.stderr(`hs: retrying (${e.reason}) in ${Math.round(e.delayMs / 100) / 10} s\n`);
      }
    };
    let r: RunResult;
    try {
      r = await h.run({
        message,
        session: sessionId,
        provider: flags.provider,
        model: flags.model,
        signal: controller.signal,
        onEvent,
      });
    } finally {
      stopListening();
    }
    if (flags.json) {
      cli.stdout(
        JSON.stringify({
          output: r.output,
          error: r.error ? r.message ?? "error" : null,
          session: r.sessionId,
          session_dir: r.sessionDir,
          provider: r.provider,
          model: r.model,
          usage: r.usage,
        }) + "\n",
      );
    } else if (!live && !flags.events && !r.error && r.output) {
      cli.stdout(r.output.endsWith("\n") ? r.output : r.output + "\n");
    }
    if (r.cancelled) {
      cli.stderr(`hs: cancelled; the session is kept: ${r.sessionDir}\n`);
      return 130;
    }
    if (r.error) {
      if (!live) cli.stderr(`hs: error: ${r.message}\n`);
      cli.stderr(`hint: the session is kept and can be resumed: hs ${r.sessionId} <message>\n`);
      return 1;
    }
    if (live && !flags.transcript) return 0;
    if (live) cli.stderr(`session: ${r.sessionDir}\n`);
    return 0;
  });
}

/** Finds `commands/<name>` executables (most local wins). */
async function executableCommands(
  cwd: string,
  home: string,
  cli: CliContext,
  trustPrompt: boolean,
): Promise<Map<string, string>> {
  const h = await cli.createHarness({ userPlugins: false });
  try {
    if (trustPrompt) handleTrust(h, cli);
    void cwd;
    void home;
    const m = new Map<string, string>();
    for (const [n, f] of h.snapshot().commands) m.set(n, f.path);
    for (const c of h.registries.commands.entries()) {
      if (!m.has(c.key)) m.set(c.key, `plugin:${c.owner}`);
    }
    return m;
  } finally {
    await h.close();
  }
}

async function tryExecutableCommand(
  name: string,
  args: string[],
  cli: CliContext,
): Promise<number | undefined> {
  const paths = resolvePaths(Deno.env.toObject(), Deno.cwd());
  // Fast exit: no .harness anywhere on the walk holds a commands/<name>.
  const candidates = walkHarnessDirs(paths.cwd, paths.home).some((d) =>
    statOrUndefined(join(d.dir, "commands", name)) !== undefined ||
    statOrUndefined(join(d.dir, "plugins")) !== undefined
  );
  if (!candidates) return undefined;
  const h = await cli.createHarness({});
  try {
    const found = h.snapshot().commands.get(name);
    if (!found) {
      const plugin = h.registries.commands.get(name);
      return plugin ? await plugin.run(args) : undefined;
    }
    const child = new Deno.Command(found.path, {
      args,
      cwd: paths.cwd,
      env: h.childEnv({ stage: "command" }),
      clearEnv: true,
      stdin: "inherit",
      stdout: "inherit",
      stderr: "inherit",
    }).spawn();
    return (await child.status).code;
  } finally {
    await h.close();
  }
}

async function toolsCommand(h: HarnessCore, cli: CliContext): Promise<number> {
  const st = styles(colorEnabled(cli.stdoutIsTerminal));
  const { tools, problems } = await h.executableToolSchemas();
  const rows: [string, string, string][] = [];
  for (const e of h.registries.tools.entries()) {
    if (tools.has(e.key)) continue;
    rows.push([e.key, (e.value.describe ?? e.value.description).split("\n")[0], e.owner]);
  }
  for (const [name, t] of tools) {
    rows.push([
      name,
      await h.execTools.describe(t.path) || t.schema.description.split("\n")[0],
      t.path,
    ]);
  }
  rows.sort((a, b) => (a[0] < b[0] ? -1 : 1));
  for (const [n, d, o] of rows) cli.stdout(`${st.bold(n.padEnd(16))} ${d}\n${st.dim(`  ${o}`)}\n`);
  for (const p of problems) cli.stdout(st.yellow(`rejected ${p.path}: ${p.reason}\n`));
  for (const s of h.snapshot().skipped) {
    if (s.path.includes("/tools/")) cli.stdout(st.yellow(`ignored ${s.path}: ${s.reason}\n`));
  }
  return 0;
}

function hooksCommand(h: HarnessCore, stage: string | undefined, cli: CliContext): number {
  const snap = h.snapshot();
  const stages = new Set([...KNOWN_STAGES, ...snap.hooks.keys()]);
  if (stage && !stages.has(stage)) {
    cli.stderr(`hs: unknown stage "${stage}"; known stages: ${[...stages].join(", ")}\n`);
    return 1;
  }
  const st = styles(colorEnabled(cli.stdoutIsTerminal));
  for (const s of stage ? [stage] : [...stages]) {
    const names = new Map<string, string>();
    for (const b of h.builtinHooks(s)) names.set(b.name, "built-in");
    for (const [n, f] of snap.hooks.get(s) ?? []) names.set(n, f.path);
    if (!stage && names.size === 0) continue;
    cli.stdout(`${st.bold(s)}\n`);
    for (const n of [...names.keys()].sort()) {
      cli.stdout(`  ${n.padEnd(20)} ${st.dim(names.get(n)!)}\n`);
    }
  }
  return 0;
}

function sessionList(dir: string, limit: number, cli: CliContext): number {
  const ids = [
    ...Deno.readDirSync(statOrUndefined(dir)?.isDirectory ? dir : "/nonexistent-dir-fallback"),
  ]
    .map((e) => e.name).sort().reverse();
  let shown = 0;
  for (const id of ids) {
    if (shown >= limit) break;
    const conf = join(dir, id, "session.conf");
    if (!statOrUndefined(conf)) continue;
    let first = "";
    try {
      const s = Session.open(join(dir, id));
      const m = s.messages().find((x) => x.role === "user");
      first = m && m.role === "user" ? m.text.split("\n")[0].slice(0, 60) : "";
      cli.stdout(
        `${id}  ${String(s.count).padStart(4)} msgs  ${s.conf.provider || "-"}  ${first}\n`,
      );
    } catch {
      cli.stdout(`${id}  (unreadable)\n`);
    }
    shown++;
  }
  if (shown === 0) cli.stdout(`no sessions in ${dir}\n`);
  return 0;
}

function sessionShow(dir: string, id: string, cli: CliContext): number {
  const sdir = id.includes("/") ? id : join(dir, id);
  const s = Session.open(sdir);
  const st = styles(colorEnabled(cli.stdoutIsTerminal));
  cli.stdout(
    st.dim(
      `session ${s.id}  provider=${s.conf.provider} model=${s.conf.model} cwd=${s.conf.cwd}\n`,
    ),
  );
  for (const m of s.messages()) {
    if (m.role === "user") cli.stdout(`\n${st.bold("user")}\n${m.text}\n`);
    else if (m.role === "assistant") {
      cli.stdout(`\n${st.bold("assistant")}\n`);
      for (const b of m.blocks) {
        if (b.type === "text") cli.stdout(b.text + "\n");
        else if (b.type === "thinking") cli.stdout(st.dim(`thinking: ${b.text}\n`));
        else cli.stdout(`${st.cyan("●")} ${b.name} ${st.dim(JSON.stringify(b.input))}\n`);
      }
    } else {cli.stdout(
        `${m.error ? st.red("✗") : st.green("✓")} ${
          st.dim(m.text.split("\n").slice(0, 3).join("\n  "))
        }\n`,
      );}
  }
  return 0;
}

async function trustCommand(path: string, list: boolean, cli: CliContext): Promise<number> {
  const h = await cli.createHarness({ userPlugins: false });
  try {
    if (list) {
      for (const t of h.trust.list()) cli.stdout(t + "\n");
      return 0;
    }
    const dirs = walkHarnessDirs(path, h.paths.home).filter((d) => d.kind === "project").map((d) =>
      d.dir
    );
    const workspaces = dirs.length ? dirs.map((d) => d.replace(/\/\.harness$/, "")) : [path];
    h.trust.trust(workspaces);
    for (const w of workspaces) cli.stdout(`trusted ${w}\n`);
    return 0;
  } finally {
    await h.close();
  }
}
