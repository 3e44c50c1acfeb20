/**
 * The flags of every command that runs the agent: provider and model, trust and
 * the effect floor's flags for all of them (`agent`, `repl`, `resume`,
 * `hs <message…>`, and the servers `acp` and `web`), output modes for the
 * terminal commands.
 *
 * @module
 */
import type { Command } from "@commander-js/extra-typings";
import { addFloorFlags, type FloorFlags } from "./floor_flags.ts";
import { flagValue, flagValues, hasFlag } from "../launch/mod.ts";

/** Options of every command that runs turns: provider, model, trust, the floor. */
export type RunFlags = {
  provider?: string;
  model?: string;
  trustWorkspace?: boolean;
} & FloorFlags;

/** Options shared by the terminal commands that run the agent. */
export type AgentFlags = RunFlags & {
  json?: boolean;
  events?: boolean;
  transcript?: boolean;
  plain?: boolean;
  bot?: string;
};

/** Adds provider, model, trust and the floor's flags to a command. */
export function addRunFlags<A extends unknown[]>(cmd: Command<A>): Command<A, RunFlags> {
  return (addFloorFlags(cmd) as unknown as Command<A>)
    .option("-p, --provider <name>", "provider or .conf variant to use (see: hs providers)")
    .option("-m, --model <name>", "model to use")
    .option(
      "--trust-workspace",
      "load this workspace's .harness/ executables for this run",
    ) as unknown as Command<A, RunFlags>;
}

/** Adds the agent flags to a command. */
export function addAgentFlags<A extends unknown[]>(cmd: Command<A>): Command<A, AgentFlags> {
  return (addRunFlags(cmd) as unknown as Command<A>)
    .option("--bot <name>", "run as a named bot of a behavior pack (see: hs packs)")
    .option("--json", "print the final answer, usage and session id as one JSON object")
    .option("--events", "print canonical events as JSON lines on stdout")
    .option("--transcript", "show the streamed transcript even when stdout is not a terminal")
    .option(
      "--plain",
      "REPL: show answers as raw text (no Markdown rendering)",
    ) as unknown as Command<A, AgentFlags>;
}

/** The harness-shaping flags found in raw argv (flags given before a command word). */
export function harnessFlagsOf(argv: string[]): FloorFlags & { trustWorkspace?: boolean } {
  const list = (name: string) => {
    const v = flagValues(argv, name);
    return v.length ? v : undefined;
  };
  return {
    trustWorkspace: hasFlag(argv, "--trust-workspace") || undefined,
    floor: flagValue(argv, "--floor"),
    allowRead: list("--allow-read"),
    allowWrite: list("--allow-write"),
    allowNet: list("--allow-net"),
    allowRun: list("--allow-run"),
    allowEnv: list("--allow-env"),
    denyRead: list("--deny-read"),
    denyWrite: list("--deny-write"),
    denyNet: list("--deny-net"),
    denyRun: list("--deny-run"),
    denyEnv: list("--deny-env"),
    yes: hasFlag(argv, "--yes") || undefined,
    unsandboxed: hasFlag(argv, "--unsandboxed") || undefined,
  };
}
