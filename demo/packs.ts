/**
 * The behavior-pack demo (`deno task demo:packs`), offline: the example pack
 * `examples/packs/reviewer` in a fresh workspace, its guards approved once,
 * then one turn of a scripted model where the pack's guard redacts a secret
 * from shell output, refuses a force-push, and its tool records a finding.
 *
 * @module
 */
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { type ScriptedTurn, startScriptedServer } from "../plugins/scripted/mod.ts";
import { probeBwrap } from "../core/mod.ts";

const REPO = fileURLToPath(new URL("..", import.meta.url)).replace(/\/$/, "");
const color = Deno.stdout.isTerminal() && !Deno.env.get("NO_COLOR");
const bold = (s: string) => (color ? `\x1b[1m${s}\x1b[22m` : s);
const dim = (s: string) => (color ? `\x1b[2m${s}\x1b[22m` : s);

const MESSAGE = "Review the workspace configuration, then publish the branch.";

/** The scripted model: one turn, four requests. */
export const PACKS_SCRIPT: ScriptedTurn[] = [
  {
    text: "Reading the configuration first.",
    toolCalls: [{ id: "toolu_p1", name: "bash", input: { command: "cat config.txt" } }],
  },
  {
    text: "Publishing the branch.",
    toolCalls: [{
      id: "toolu_p2",
      name: "bash",
      input: { command: "git push --force origin main" },
    }],
  },
  {
    text: "Recording the finding.",
    toolCalls: [{
      id: "toolu_p3",
      name: "review_note",
      input: { finding: "config.txt holds a live API key: move it to the environment." },
    }],
  },
  {
    text: "config.txt holds credentials (redacted above); I noted it. The force-push was refused " +
      "by the reviewer pack, so nothing was published.",
  },
];

async function copyDir(from: string, to: string): Promise<void> {
  await Deno.mkdir(to, { recursive: true });
  for await (const e of Deno.readDir(from)) {
    if (e.isDirectory) await copyDir(join(from, e.name), join(to, e.name));
    else await Deno.copyFile(join(from, e.name), join(to, e.name));
  }
}

async function hs(args: string[], cwd: string, env: Record<string, string>, show = true) {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--quiet", join(REPO, "main.ts"), ...args],
    cwd,
    env,
    clearEnv: true,
    stdin: "null",
    stdout: show ? "inherit" : "piped",
    stderr: "piped",
  }).output();
  return { code: out.code, stderr: new TextDecoder().decode(out.stderr) };
}

async function main(): Promise<number> {
  const server = await startScriptedServer(
    PACKS_SCRIPT.map((t) => ({
      ...t,
      chunkSize: 6,
      delayMs: Deno.env.get("HS_DEMO_FAST") ? 0 : 10,
    })),
  );
  const root = await Deno.makeTempDir({ prefix: "hs-demo-packs-" });
  try {
    const home = join(root, "home");
    const ws = join(root, "project");
    await Deno.mkdir(join(home, "providers"), { recursive: true });
    await Deno.writeTextFile(
      join(home, "providers", "demo.conf"),
      `protocol=anthropic\nurl=${server.url}/v1/messages\nmodel=scripted-demo\n`,
    );
    await copyDir(join(REPO, "examples/packs/reviewer"), join(ws, ".harness/packs/reviewer"));
    await Deno.writeTextFile(
      join(ws, "config.txt"),
      "api_key=sk-live-4f9a2c backup_token=ghp_77Xq\n",
    );
    const env: Record<string, string> = {
      ...Deno.env.toObject(),
      HOME: root,
      HARNESS_HOME: home,
      HARNESS_LOG: join(home, "harness.log"),
    };
    delete env.HARNESS_PROVIDER;
    delete env.HARNESS_MODEL;
    const probe = await probeBwrap(Deno.env.toObject());
    const floor = probe.ok ? [] : ["--unsandboxed"];

    console.log(
      bold("hs behavior-pack demo") + dim(" — offline: a scripted model on " + server.url),
    );
    console.log(
      dim(
        `project ${ws}\n  .harness/packs/reviewer   the example pack (examples/packs/reviewer)\n`,
      ),
    );
    console.log(bold("$ hs packs") + dim("   (a new pack's guards wait for your approval)"));
    await hs(["packs", "--trust-workspace"], ws, env);
    console.log(bold("\n$ hs packs approve") + dim("   (once; any change to a guard asks again)"));
    await hs(["packs", "approve", "--trust-workspace"], ws, env);
    console.log(`\n${bold("you")} ${MESSAGE}\n`);
    const run = await hs(
      ["agent", "-p", "demo", "--transcript", "--trust-workspace", ...floor, MESSAGE],
      ws,
      env,
    );
    if (run.code !== 0) {
      console.error(run.stderr);
      return 1;
    }
    console.log(dim("\nthe pack's observer hook wrote to the log:"));
    for (const line of (await Deno.readTextFile(join(home, "harness.log"))).split("\n")) {
      if (line.includes("[pack reviewer/reviewer]")) console.log(dim(`  ${line}`));
    }
    return 0;
  } finally {
    await server.close();
    await Deno.remove(root, { recursive: true });
  }
}

if (import.meta.main) Deno.exit(await main());
