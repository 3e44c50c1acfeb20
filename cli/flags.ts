/**
 * The flags of every command that runs the agent (`agent`, `repl`, `resume`,
 * and `hs <message…>`): provider and model, output modes, trust, and the
 * effect floor's flags.
 *
 * @module
 */
import type { Command } from "@commander-js/extra-typings";
import { addFloorFlags, type FloorFlags } from "./floor_flags.ts";
import { flagValue, flagValues, hasFlag } from "./launch/mod.ts";

/** Options shared by the commands that run the agent. */
export type AgentFlags = {
  provider?: string;
  model?: string;
  json?: boolean;
  events?: boolean;
  transcript?: boolean;
  plain?: boolean;
  trustWorkspace?: boolean;
  bot?: string;
} & FloorFlags;

/** Adds the agent flags to a command. */
export function addAgentFlags<A extends unknown[]>(cmd: Command<A>): Command<A, AgentFlags> {
  return (addFloorFlags(cmd) as unknown as Command<A>)
    .option("-p, --provider <name>", "provider or .conf variant to use (see: hs providers)")
    .option("-m, --model <name>", "model to use")
    .option("--bot <name>", "run as a named bot of a behavior pack (see: hs packs)")
    .option("--json", "print the final answer, usage and session id as one JSON object")
    .option("--events", "print canonical events as JSON lines on stdout")
    .option("--transcript", "show the streamed transcript even when stdout is not a terminal")
    .option("--plain", "REPL: show answers as raw text (no Markdown rendering)")
    .option(
      "--trust-workspace",
      "load this workspace's .harness/ executables for this run",
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
