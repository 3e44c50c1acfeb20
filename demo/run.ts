/**
 * The offline demo (`deno task demo`): a loopback server speaking the
 * Anthropic Messages streaming protocol replays a scripted model; `hs` runs a
 * full tool-using turn in `demo/workspace/`, whose `.harness/` holds a Python
 * tool, a gate hook on `tool_exec`, an observer hook on `receive`, a skill and
 * an AGENTS.md. No network, no keys.
 *
 * @module
 */
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { type ScriptedTurn, startScriptedServer } from "../plugins/scripted/mod.ts";
import { probeBwrap } from "../core/mod.ts";

const REPO = fileURLToPath(new URL("..", import.meta.url)).replace(/\/$/, "");
const WORKSPACE = join(REPO, "demo", "workspace");
const SESSIONS = join(WORKSPACE, ".harness", "sessions");
const color = Deno.stdout.isTerminal() && !Deno.env.get("NO_COLOR");
const bold = (s: string) => (color ? `\x1b[1m${s}\x1b[22m` : s);
const dim = (s: string) => (color ? `\x1b[2m${s}\x1b[22m` : s);

const MESSAGE = "How many words are in notes.txt? Also clear the old build output.";

/** The scripted model: four requests, one turn. */
export const DEMO_SCRIPT: ScriptedTurn[] = [
  {
    thinking: {
      text: "A report about a file: the concise-report skill applies.",
      signature: "demo-sig-1",
    },
    text: "I'll load the concise-report skill first.",
    toolCalls: [{ id: "toolu_demo_1", name: "skill", input: { name: "concise-report" } }],
  },
  {
    text: "Measuring notes.txt with the workspace's word_count tool.",
    toolCalls: [{ id: "toolu_demo_2", name: "word_count", input: { path: "notes.txt" } }],
  },
  {
    text: "Now clearing the old build output.",
    toolCalls: [{ id: "toolu_demo_3", name: "bash", input: { command: "rm -rf build/" } }],
  },
  {
    text: "notes.txt has 2 lines, 31 words and 184 characters (measured by word_count). " +
      "The cleanup was refused by the workspace gate, so nothing was deleted.",
  },
];

async function main(): Promise<number> {
  const server = await startScriptedServer(
    DEMO_SCRIPT.map((t) => ({
      ...t,
      chunkSize: 5,
      delayMs: Deno.env.get("HS_DEMO_FAST") ? 0 : 12,
    })),
  );
  const home = await Deno.makeTempDir({ prefix: "hs-demo-home-" });
  try {
    await Deno.mkdir(join(home, "providers"), { recursive: true });
    await Deno.writeTextFile(
      join(home, "providers", "demo.conf"),
      `protocol=anthropic\nurl=${server.url}/v1/messages\nmodel=scripted-demo\n` +
        `description=offline scripted model on a loopback server\n`,
    );
    await Deno.mkdir(SESSIONS, { recursive: true });

    console.log(bold("hs demo") + dim(" — offline: a scripted model on " + server.url));
    console.log(dim(`workspace ${WORKSPACE}`));
    console.log(dim("  .harness/tools/word_count            python tool"));
    console.log(dim("  .harness/hooks.d/tool_exec/05-guard  gate: refuses recursive deletes"));
    console.log(dim("  .harness/hooks.d/receive/20-usage    observer: logs token usage"));
    console.log(dim("  .harness/skills/concise-report       skill, loaded on demand"));
    console.log(dim("  AGENTS.md                            project instructions\n"));
    // The workspace preset sandboxes child processes with bubblewrap; where there is
    // none (macOS, containers without user namespaces) the demo says so and runs them as is.
    const probe = await probeBwrap(Deno.env.toObject());
    const floorFlags = probe.ok ? [] : ["--unsandboxed"];
    console.log(dim(
      probe.ok
        ? "effect floor: workspace preset, child processes in bubblewrap"
        : `effect floor: workspace preset; ${probe.reason} — running tools unsandboxed`,
    ));
    console.log(`\n${bold("you")} ${MESSAGE}\n`);

    const env: Record<string, string> = {
      ...Deno.env.toObject(),
      HARNESS_HOME: home,
      HARNESS_SESSIONS: SESSIONS,
      HARNESS_LOG: join(home, "harness.log"),
    };
    delete env.HARNESS_PROVIDER;
    delete env.HARNESS_MODEL;
    const child = new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "-A",
        "--quiet",
        join(REPO, "main.ts"),
        "agent",
        "--transcript",
        "--trust-workspace",
        ...floorFlags,
        MESSAGE,
      ],
      cwd: WORKSPACE,
      env,
      clearEnv: true,
      stdin: "null",
      stdout: "inherit",
      stderr: "piped",
    }).spawn();
    const [status, stderr] = await Promise.all([child.status, new Response(child.stderr).text()]);
    const m = /session: (\S+)/.exec(stderr);
    if (status.code !== 0 || !m) {
      console.error(stderr);
      console.error(`demo failed: hs exited ${status.code}`);
      return 1;
    }
    const dir = m[1];
    console.log(`\n${bold("session written to")} ${dir}`);
    for (const e of [...Deno.readDirSync(join(dir, "messages"))].map((x) => x.name).sort()) {
      console.log(dim(`  messages/${e}`));
    }
    console.log(dim("  session.conf  .stream  usage.log (from the receive observer):"));
    for (const line of (await Deno.readTextFile(join(dir, "usage.log"))).trim().split("\n")) {
      console.log(dim(`    ${line}`));
    }
    const last = [...Deno.readDirSync(join(dir, "messages"))].map((x) => x.name).sort().at(-1);
    console.log(
      `\n${dim("messages are plain markdown:")} cat ${join(dir, "messages", last ?? "")}`,
    );
    return 0;
  } finally {
    await server.close();
    await Deno.remove(home, { recursive: true });
  }
}

if (import.meta.main) Deno.exit(await main());
