/**
 * `hs packs test`: a pack's guards, hooks and methods run against recorded model turns, in a
 * throwaway place — a temporary HARNESS_HOME holding only the pack under test (its guards
 * approved there, so it is on whatever the user's approvals and opt-outs say) and a copy of
 * the workspace — through a harness of its own: the real loop, the real seam (guards → floor
 * → core), the real tools, a cassette as the model. The user's workspace, sessions and
 * approvals are read, never written. What each guard decided, the hooks that fired, the
 * methods that committed and each call's result come back as a {@link PackTestReport}.
 *
 * @module
 */
import { basename, join } from "./early/mod.ts";
import { HarnessError } from "./base/mod.ts";
import type { HarnessOptions } from "./harness_options.ts";
import type { RunResult } from "./loop/mod.ts";
import type { BotState, PackState } from "./packs/mod.ts";
import type { RunOptions } from "./runs.ts";
import {
  AnswerQueue,
  type Cassette,
  cassettePlugin,
  check,
  type Checked,
  type Expectation,
  parseTestScript,
  sessionCassette,
  TEST_MODEL,
  TEST_PROVIDER,
  Tracer,
  type TraceStep,
} from "./packtest/mod.ts";
import { Session } from "./session/mod.ts";

/** What a pack test uses of its harness (a FrontEnd: `CliContext.createHarness`'s). */
export interface TestHarness {
  packs: {
    loadNamed(): Promise<void>;
    list(): PackState[];
    bots(): BotState[];
    approve(b: BotState): Promise<void>;
  };
  runs: { run(opts: RunOptions): Promise<RunResult> };
  close(): Promise<void>;
}

/** What a pack test runs. */
export interface PackTestRequest {
  /** The pack under test: its name and directory. */
  pack: { name: string; dir: string };
  /** The model's side: a test script or a session's cassette. */
  cassette: Cassette;
  /** More expectations (`--expect FILE`). */
  expect?: Expectation[];
  /** The directory copied into the throwaway workspace. */
  workspace: string;
  /** The user's environment (HARNESS_HOME and HARNESS_LOG are replaced). */
  env: Record<string, string | undefined>;
  /** Run as this named bot of the pack (default: its foreground bot, or its only bot). */
  bot?: string;
  /** Where the throwaway directory is made (default: the system's temporary directory). */
  scratch?: string;
  /** Keep the throwaway directory (its path is in the report). */
  keep?: boolean;
  /** Makes the test's harness (`CliContext.createHarness`). */
  create(opts: HarnessOptions): Promise<TestHarness>;
  /** The options the test's harness is created with besides its own (the floor flags). */
  options?: HarnessOptions;
}

/** What a pack test saw. */
export interface PackTestReport {
  pack: string;
  /** The bot it ran as. */
  bot: string;
  /** The script file or the session directory. */
  source: string;
  /** Tool calls and the boundaries the pack acted on, in order. */
  steps: TraceStep[];
  /** Each user turn: its message, the final answer, whether it ended in an error. */
  turns: { message: string; output: string; error: boolean }[];
  checks: Checked[];
  /** Guards that failed (threw, timed out, ran out of fuel): each fails the test. */
  guardErrors: number;
  /** Things worth knowing that do not fail the test (answers left over, …). */
  notes: string[];
  /** The pack's lines of HARNESS_LOG (its `display` output, collected hook failures). */
  log: string[];
  /** The throwaway directory when kept. */
  kept?: string;
  /** True when no guard failed and every expectation held. */
  passed: boolean;
}

/** Files a workspace copy may hold at most (a larger one asks for `--workspace`). */
const MAX_COPY_FILES = 5000;
/** Bytes a workspace copy may hold at most. */
const MAX_COPY_BYTES = 200 * 1024 * 1024;
/** What a workspace copy leaves out. */
const SKIP = new Set([".git", "node_modules", ".harness"]);

/** A test script read from a file (missing file: an error naming it). */
export async function readTestScript(path: string): Promise<Cassette> {
  let text: string;
  try {
    text = await Deno.readTextFile(path);
  } catch (err) {
    throw new HarnessError(
      `cannot read the test script ${path}: ${(err as Error).message}`,
      "pass --script with a JSON file in the scripted provider's format (see docs/packs.md)",
    );
  }
  return parseTestScript(text, path);
}

/** Expectations read from a file (`--expect`): a JSON array, as a script's `expect`. */
export async function readExpectations(path: string): Promise<Expectation[]> {
  const text = await Deno.readTextFile(path).catch((err) => {
    throw new HarnessError(`cannot read the expectations ${path}: ${(err as Error).message}`);
  });
  const wrapped = text.trim().startsWith("[") ? `{"turns":[],"expect":${text}}` : text;
  return parseTestScript(wrapped, path).expect;
}

/** The cassette of a session directory: its recorded model turns (read only). */
export function readSessionCassette(dir: string): Cassette {
  return sessionCassette(Session.open(dir).messages(), dir);
}

async function copyTree(
  from: string,
  to: string,
  count: { n: number; bytes: number },
): Promise<void> {
  await Deno.mkdir(to, { recursive: true });
  for await (const e of Deno.readDir(from)) {
    if (SKIP.has(e.name)) continue;
    const src = join(from, e.name), dst = join(to, e.name);
    if (e.isFile) count.bytes += (await Deno.stat(src)).size;
    if (++count.n > MAX_COPY_FILES || count.bytes > MAX_COPY_BYTES) {
      throw new HarnessError(
        `the workspace is too large to copy into the test's workspace (more than ` +
          `${MAX_COPY_FILES} files or ${MAX_COPY_BYTES / 1024 / 1024} MB besides .git, ` +
          "node_modules and .harness)",
        "pass --workspace <dir> with the fixture files the test needs",
      );
    }
    if (e.isSymlink) await Deno.symlink(await Deno.readLink(src), dst);
    else if (e.isDirectory) await copyTree(src, dst, count);
    else if (e.isFile) await Deno.copyFile(src, dst);
  }
}

async function copyPack(from: string, to: string): Promise<void> {
  await Deno.mkdir(to, { recursive: true });
  for await (const e of Deno.readDir(from)) {
    const src = join(from, e.name), dst = join(to, e.name);
    if (e.isDirectory) await copyPack(src, dst);
    else if (e.isFile) await Deno.copyFile(src, dst);
  }
}

/** The bot a test runs as, approved and attached; an error says why it cannot. */
async function forceOn(h: TestHarness, pack: string, wanted?: string): Promise<BotState> {
  await h.packs.loadNamed();
  const p = h.packs.list().find((s) => s.manifest?.name === pack);
  if (!p) throw new HarnessError(`pack ${pack} did not load in the test's harness`);
  if (p.error) throw new HarnessError(`pack ${pack} has a load error: ${p.error}`);
  for (const b of h.packs.bots()) {
    if (b.pack.name === pack && b.pending.length) await h.packs.approve(b);
  }
  const bots = h.packs.bots().filter((b) => b.pack.name === pack);
  const b = wanted
    ? bots.find((x) => x.spec.name === wanted)
    : bots.find((x) => x.spec.attach === "foreground") ?? (bots.length === 1 ? bots[0] : undefined);
  if (!b) {
    const names = bots.map((x) => x.spec.name).join(", ") || "none";
    throw new HarnessError(
      wanted ? `pack ${pack} has no bot ${wanted}` : `pack ${pack} has no foreground bot`,
      `pass --bot <name> (its bots: ${names})`,
    );
  }
  if (b.status !== "attached" && b.status !== "ready" && b.status !== "no behavior") {
    throw new HarnessError(
      `bot ${pack}/${b.spec.name} does not attach: ${b.status}${b.reason ? ` — ${b.reason}` : ""}`,
      "fix the bot or its program (hs packs lists its problems)",
    );
  }
  return b;
}

/** Runs a pack test (see the module); never writes outside its throwaway directory. */
export async function runPackTest(req: PackTestRequest): Promise<PackTestReport> {
  const root = await Deno.makeTempDir({
    prefix: `hs-packs-test-${req.pack.name}-`,
    ...(req.scratch ? { dir: req.scratch } : {}),
  });
  const home = join(root, "home"), ws = join(root, "ws"), log = join(root, "harness.log");
  let keep = req.keep === true;
  try {
    await copyTree(req.workspace, ws, { n: 0, bytes: 0 });
    await copyPack(req.pack.dir, join(home, "packs", basename(req.pack.dir)));
    const env: Record<string, string | undefined> = {
      ...req.env,
      HARNESS_HOME: home,
      HARNESS_LOG: log,
    };
    delete env.HARNESS_PROVIDER;
    delete env.HARNESS_MODEL;
    const queue = new AnswerQueue();
    const tracer = new Tracer();
    const h = await req.create({
      ...req.options,
      cwd: ws,
      env,
      userPlugins: false,
      trustWorkspace: false,
      ephemeral: true,
      runtimePlugins: [{ plugin: cassettePlugin(queue), required: true }],
      seamTrace: tracer,
    });
    try {
      const bot = await forceOn(h, req.pack.name, req.bot);
      const out = await runTurns(h, req.cassette, queue, tracer, bot);
      const checks = [...req.cassette.expect, ...(req.expect ?? [])].map((e) =>
        check(e, tracer.steps)
      );
      const guardErrors = tracer.steps.flatMap((s) => s.guards)
        .filter((d) => d.decision === "error").length;
      const passed = guardErrors === 0 && checks.every((c) => c.ok);
      return {
        pack: req.pack.name,
        bot: bot.spec.name,
        source: req.cassette.source,
        steps: tracer.steps,
        turns: out.turns,
        checks,
        guardErrors,
        notes: out.notes,
        log: await packLog(log, req.pack.name),
        ...(keep ? { kept: root } : {}),
        passed,
      };
    } finally {
      await h.close();
    }
  } catch (err) {
    keep = false;
    throw err;
  } finally {
    if (!keep) await Deno.remove(root, { recursive: true }).catch(() => {});
  }
}

/** Runs every user turn of the cassette in one session, the queue loaded with its answers. */
async function runTurns(
  h: TestHarness,
  cassette: Cassette,
  queue: AnswerQueue,
  tracer: Tracer,
  bot: BotState,
): Promise<{ turns: PackTestReport["turns"]; notes: string[] }> {
  const turns: PackTestReport["turns"] = [];
  const notes: string[] = [];
  let session: string | undefined;
  for (const [i, t] of cassette.turns.entries()) {
    queue.load(t.answers);
    const r = await h.runs.run({
      message: t.message,
      ...(session ? { session } : {}),
      provider: TEST_PROVIDER,
      model: TEST_MODEL,
      ...(bot.spec.attach === "foreground" ? {} : { bot: bot.spec.name }),
      onEvent: (e) => tracer.event(e),
    });
    session = r.sessionDir;
    turns.push({ message: t.message, output: r.output, error: r.error });
    if (queue.remaining) {
      notes.push(
        `turn ${i + 1}: ${queue.remaining} recorded answer(s) were not asked for (the turn ` +
          "ended before them: a refused turn, an error, or an answer without tool calls)",
      );
    }
  }
  return { turns, notes };
}

/** The lines of a HARNESS_LOG that name the pack. */
async function packLog(path: string, pack: string): Promise<string[]> {
  const text = await Deno.readTextFile(path).catch(() => "");
  return text.split("\n").filter((l) => l.includes(`${pack}/`)).map((l) => l.trimEnd());
}
