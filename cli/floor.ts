/**
 * The effect floor on the command line: `--floor`, `--allow-*`, `--deny-*`,
 * `--yes`, `--unsandboxed`, and `hs floor` (the effective policy and where
 * each part came from).
 *
 * @module
 */
import type { Command } from "@commander-js/extra-typings";
import { z } from "zod";
import { HarnessError } from "../core/base/errors.ts";
import type { HarnessCore } from "../core/harness.ts";
import { terminalAsker } from "../core/guards/consent.ts";
import type { FloorRequest } from "../core/guards/floor.ts";
import { type Effect, EFFECTS, PRESETS } from "../core/guards/policy.ts";
import type { CliContext } from "./context.ts";

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

/** Adds the floor flags to a command. */
export function addFloorFlags<A extends unknown[]>(cmd: Command<A>): Command<A, FloorFlags> {
  let c = cmd.option(
    "--floor <preset>",
    "effect floor preset: read-only | workspace (default) | full",
  ) as unknown as Command<A>;
  for (const e of EFFECTS) {
    c = c.option(`--allow-${e} <list>`, `let tools ${e} these (comma list, or all)`, collect)
      .option(`--deny-${e} <list>`, `never let tools ${e} these`, collect) as unknown as Command<A>;
  }
  return c.option("--yes", "approve every permission prompt (headless)")
    .option(
      "--unsandboxed",
      "run child processes without an OS sandbox when none is available (warns on every call)",
    ) as unknown as Command<A, FloorFlags>;
}

const presetSchema = z.enum(PRESETS);

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
    const r = presetSchema.safeParse(flags.floor);
    if (!r.success) {
      throw new HarnessError(
        `unknown floor preset "${flags.floor}"`,
        `use one of: ${PRESETS.join(", ")}`,
        2,
      );
    }
    preset = r.data;
  }
  const allow: Partial<Record<Effect, string[]>> = {};
  const deny: Partial<Record<Effect, string[]>> = {};
  for (const e of EFFECTS) {
    const a = flags[`allow${cap(e)}`];
    const d = flags[`deny${cap(e)}`];
    if (a) allow[e] = a;
    if (d) deny[e] = d;
  }
  const env = Deno.env.toObject();
  return {
    preset: preset ?? (env.HARNESS_FLOOR ? presetSchema.parse(env.HARNESS_FLOOR) : undefined),
    allow: Object.fromEntries(
      Object.entries(allow).map(([k, v]) => [k, v!.includes("all") ? "all" : v]),
    ) as FloorRequest["allow"],
    deny,
    yes: flags.yes === true,
    unsandboxed: flags.unsandboxed === true || env.HARNESS_UNSANDBOXED === "1",
    asker: interactive ? terminalAsker : undefined,
    warn: (line) => cli.stderr(line + "\n"),
  };
}

/** Prints the effective floor (also used by `hs doctor`). */
export async function printFloor(
  h: HarnessCore,
  out: (line: string) => void,
): Promise<void> {
  const f = h.effectFloor;
  if (!f) {
    out("  no effect floor (library default: allow all)");
    return;
  }
  for (const l of f.describe()) out(`  ${l}`);
  const p = await f.sandbox.probe();
  out(
    `  sandbox  ${
      p.ok ? `bubblewrap (${p.bwrap})` : `unavailable — ${p.reason}`
    }; file tools: Deno worker with exactly the policy's permissions`,
  );
}

/** `hs floor`. */
export async function floorCommand(h: HarnessCore, cli: CliContext): Promise<number> {
  cli.stdout("effect floor\n");
  await printFloor(h, (l) => cli.stdout(l + "\n"));
  return 0;
}
