/**
 * Loading packs and bots, handed their inputs: the pack directories read into
 * {@link PackState}s (each bot with its first status), and one bot's program loaded, its
 * configuration validated and its guards checked against the recorded approvals (an
 * unapproved guard is a load error). The holder of the results is packs.ts.
 *
 * @module
 */
import { join } from "../early/mod.ts";
import type { PolicyPlaces } from "../guards/mod.ts";
import type { BehaviorServices } from "./behavior.ts";
import { type BotSpec, readBot } from "./bots.ts";
import type { GuardApprovals } from "./consent.ts";
import { type PackError, readPack } from "./manifest.ts";
import type { BehaviorProgram, BotState, PackState, ProgramLoader } from "./program.ts";

/** The principal a named bot runs as. */
export function botPrincipal(name: string): string {
  return `bot:${name}`;
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

/** What {@link readPackStates} reads with. */
export interface PackReadInputs {
  /** Pack directories with where they came from, lowest priority first. */
  dirs: { dir: string; source: string }[];
  /** `$HARNESS_HOME/plugin-data` (for `${PLUGIN_DATA}`). */
  dataDir: string;
  /** Packs whose foreground bot the user opted out of. */
  foregroundOff: ReadonlySet<string>;
  /** Writes a line to the harness log. */
  log(line: string): void;
}

/** Reads every pack directory and its bots (a more local pack of the same name wins). */
export function readPackStates(inputs: PackReadInputs): PackState[] {
  const byName = new Map<string, PackState>();
  for (const { dir, source } of inputs.dirs) {
    const state: PackState = { dir, source, bots: [] };
    try {
      state.manifest = readPack(dir, inputs.dataDir);
    } catch (err) {
      state.error = (err as Error).message;
      inputs.log(`[packs] ${state.error}`);
      byName.set(`\0${dir}`, state);
      continue;
    }
    const m = state.manifest;
    for (const file of m.bots) state.bots.push(readBotState(file, state, inputs.foregroundOff));
    byName.set(m.name, state); // a more local pack of the same name wins
  }
  return [...byName.values()];
}

/** One bot file of a pack with its first status. */
function readBotState(
  file: string,
  state: PackState,
  foregroundOff: ReadonlySet<string>,
): BotState {
  const m = state.manifest!;
  let spec: BotSpec;
  try {
    spec = readBot(file, m.root);
  } catch (err) {
    const e = err as PackError;
    // a bot that says it is foreground fails closed even when the rest of it does not parse
    const foreground = saysForeground(file);
    return {
      spec: {
        file,
        name: file.split("/").pop()!.replace(/\.prompt$/, ""),
        prompt: "",
        attach: foreground ? "foreground" : "named",
        scope: foreground ? undefined : "session",
      },
      pack: m,
      status: "not attached",
      reason: e.message,
      pending: [],
      principal: foreground ? "main" : "",
    };
  }
  const foreground = spec.attach === "foreground";
  return {
    spec,
    pack: m,
    // the opt-out holds for the foreground bot with or without behavior (its prompt, its ceiling)
    status: spec.problem
      ? "not attached"
      : foreground && foregroundOff.has(m.name)
      ? "disabled"
      : !spec.behavior
      ? "no behavior"
      : "ready",
    reason: spec.problem,
    pending: [],
    principal: foreground ? "main" : botPrincipal(spec.name),
  };
}

/** True when a bot file's frontmatter has an `attach: foreground` line (read without YAML). */
function saysForeground(file: string): boolean {
  try {
    const text = Deno.readTextFileSync(file);
    const end = text.indexOf("\n---", 3);
    return /^attach:\s*["']?foreground\b/m.test(end < 0 ? text : text.slice(0, end));
  } catch {
    return false;
  }
}

/** What {@link loadBot} loads with. */
export interface BotLoadInputs {
  /** Loads behavior programs (absent: bots with a behavior do not attach). */
  loader?: ProgramLoader;
  /** The recorded guard approvals. */
  approvals: GuardApprovals;
  /** The places effect policies name. */
  places: PolicyPlaces;
  /** The principal whose behavior applies to an agent (default: its own). */
  behaviorOf?(principal: string): string;
  /** Writes a line to the harness log. */
  log(line: string): void;
  /** The host services of the bot's program. */
  services: BehaviorServices;
}

/**
 * Loads a bot's program and checks its configuration and guard approvals, setting the bot's
 * status, reason, pending guards and program; true when the bot is attached.
 */
export async function loadBot(b: BotState, inputs: BotLoadInputs): Promise<boolean> {
  const loader = inputs.loader;
  if (!loader || !b.spec.behavior) {
    b.status = "not attached";
    b.reason = loader ? b.reason : "this build has no behavior-program loader";
    return false;
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
      appliesTo: (p) => (inputs.behaviorOf?.(p) ?? p) === principal,
      places: inputs.places,
      log: (t) => inputs.log(`[pack ${b.pack.name}/${b.spec.name}] ${t}`),
      services: inputs.services,
      principal,
    });
  } catch (err) {
    b.status = "not attached";
    b.reason = (err as Error).message;
    inputs.log(`[packs] ${b.pack.name}/${b.spec.name}: ${b.reason}`);
    return false;
  }
  const invalid = await program.validateConfiguration();
  if (invalid) {
    b.status = "not attached";
    // the predicate's place first (file:line:col), then where the configuration is
    b.reason = `${invalid} (the configuration of ${b.spec.file})`;
    inputs.log(`[packs] ${b.pack.name}/${b.spec.name}: ${b.reason}`);
    return false;
  }
  b.pending = program.consent
    .map((c) => ({ ...c, pack: b.pack.name, bot: b.spec.name }))
    .filter((c) => !inputs.approvals.isApproved(c));
  b.program = program;
  if (b.pending.length) {
    b.status = "awaiting approval";
    b.reason = `${b.pending.length} guard(s) not approved (an unapproved guard is a load error): ` +
      "approve them with: hs packs approve";
    return false;
  }
  b.status = "attached";
  return true;
}
