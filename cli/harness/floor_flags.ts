/**
 * The effect floor's flags: `--floor`, `--allow-*`, `--deny-*`, `--yes`,
 * `--unsandboxed`, and the floor request they make.
 *
 * @module
 */
import type { Command } from "@commander-js/extra-typings";
import { FLOOR_PRESETS, HarnessError } from "../../core/base/mod.ts";
import { type Effect, EFFECTS } from "../../core/sandbox/mod.ts";
import type { FloorRequest } from "../../core/mod.ts";
import { terminalAsker } from "../prompts/mod.ts";
import type { CliContext } from "../base/mod.ts";
import { sanitizeForTerminal } from "../view/mod.ts";

/** Floor flags as commander parses them. */
export type FloorFlags = {
  floor?: string;
  allowRead?: string[];
  allowWrite?: string[];
  allowNet?: string[];
  allowRun?: string[];
  allowEnv?: string[];
  denyRead?: string[];
  denyWrite?: string[];
  denyNet?: string[];
  denyRun?: string[];
  denyEnv?: string[];
  yes?: boolean;
  unsandboxed?: boolean;
};

const collect = (v: string, prev: string[] = []) => [
  ...prev,
  ...v.split(",").map((s) => s.trim()).filter(Boolean),
];

/** How `--allow-<effect>` and `--deny-<effect>` read in `--help`. */
const FLAG_WORDS: Record<Effect, { verb: string; what: string }> = {
  read: { verb: "read", what: "paths" },
  write: { verb: "write", what: "paths" },
  net: { verb: "reach", what: "hosts (host[:port])" },
  run: { verb: "run", what: "programs" },
  env: { verb: "see", what: "environment variables" },
};

/** Adds the floor flags to a command. */
export function addFloorFlags<A extends unknown[]>(cmd: Command<A>): Command<A, FloorFlags> {
  let c = cmd.option(
    "--floor <preset>",
    "effect floor preset: read-only | workspace (default) | full",
  ) as unknown as Command<A>;
  for (const e of EFFECTS) {
    const { verb, what } = FLAG_WORDS[e];
    c = c.option(
      `--allow-${e} <list>`,
      `let tools ${verb} these ${what}; a comma list, or all`,
      collect,
    )
      .option(
        `--deny-${e} <list>`,
        `never let tools ${verb} these ${what}`,
        collect,
      ) as unknown as Command<
        A
      >;
  }
  return c.option("--yes", "approve every permission prompt (headless)")
    .option(
      "--unsandboxed",
      "run child processes without an OS sandbox when none is available (warns on every call)",
    ) as unknown as Command<A, FloorFlags>;
}

function cap(e: Effect): "Read" | "Write" | "Net" | "Run" | "Env" {
  return (e[0].toUpperCase() + e.slice(1)) as "Read" | "Write" | "Net" | "Run" | "Env";
}

/** The floor request of parsed flags (`interactive`: prompt for `ask` on this terminal). */
export function floorRequestOf(
  flags: FloorFlags,
  cli: CliContext,
  interactive: boolean,
): FloorRequest {
  let preset: FloorRequest["preset"];
  if (flags.floor !== undefined) {
    if (!(FLOOR_PRESETS as readonly string[]).includes(flags.floor)) {
      throw new HarnessError(
        `unknown floor preset "${flags.floor}"`,
        `use one of: ${FLOOR_PRESETS.join(", ")}`,
        2,
      );
    }
    preset = flags.floor as FloorRequest["preset"];
  }
  const allow: Partial<Record<Effect, string[]>> = {};
  const deny: Partial<Record<Effect, string[]>> = {};
  for (const e of EFFECTS) {
    const a = flags[`allow${cap(e)}`];
    const d = flags[`deny${cap(e)}`];
    if (a) allow[e] = a;
    if (d) deny[e] = d;
  }
  // HARNESS_FLOOR and HARNESS_UNSANDBOXED are applied by the harness (its settings)
  return {
    preset,
    allow: Object.fromEntries(
      Object.entries(allow).map(([k, v]) => [k, v!.includes("all") ? "all" : v]),
    ) as FloorRequest["allow"],
    deny,
    yes: flags.yes === true,
    unsandboxed: flags.unsandboxed === true,
    asker: interactive ? terminalAsker : undefined,
    warn: (line) => cli.stderr(sanitizeForTerminal(line) + "\n"),
  };
}
