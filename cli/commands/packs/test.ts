/**
 * `hs packs test <pack> --script FILE | --session DIR|ID`: runs a pack's guards, hooks and
 * methods against recorded model turns — a test script (the scripted provider's format, with
 * an `expect` section) or a session's messages as a cassette — in a throwaway HARNESS_HOME and
 * workspace copy (core/pack_test.ts), and prints what each guard decided per tool call.
 * Exit 1 when a guard failed or an expectation did not hold.
 *
 * @module
 */
import type { Command } from "@commander-js/extra-typings";
import { resolve } from "../../../core/early/mod.ts";
import {
  HarnessError,
  readExpectations,
  readSessionCassette,
  readTestScript,
} from "../../../core/mod.ts";
import {
  addFloorFlags,
  type CommandContext,
  type FloorFlags,
  floorRequestOf,
} from "../../harness/mod.ts";
import { colorEnabled, jsonForTerminal, styles } from "../../view/mod.ts";
import { renderReport } from "./test_view.ts";

const EXAMPLE = `
A test script is the scripted provider's script (a JSON array of model turns) or an object
with the user's message, the turns, and what to expect of the tool calls (numbered from 1)
or of the turns ({"turn": 1, "outcome": "refused"}):

  {"message": "tidy up",
   "turns": [{"toolCalls": [{"name": "bash", "input": {"command": "git push --force"}}]},
             {"toolCalls": [{"name": "bash", "input": {"command": "echo token=sk-live1"}}]},
             {"text": "done"}],
   "expect": [{"call": 1, "outcome": "refused", "guard": "no-force-push"},
              {"call": 2, "outcome": "allowed", "result": "[redacted]"}]}

Example:
  hs packs test reviewer --script examples/packs/reviewer/tests/force_push.json
  hs packs test reviewer --session 20260101-120000-ab12 --expect expect.json --json

It runs in a throwaway HARNESS_HOME (only this pack, its guards approved there) and a copy
of the workspace (without .git, node_modules and .harness), both in the system's temporary
directory: your files, sessions and approvals are never written. Outcomes: allowed,
rewritten (input: the fields the floor got), refused (reason), failed (a guard threw).
Exit 1 when a guard fails or an expectation does not hold. See docs/packs.md, "Testing a
pack".
`;

type TestFlags = FloorFlags & {
  script?: string;
  session?: string;
  expect?: string;
  bot?: string;
  workspace?: string;
  keep?: boolean;
  json?: boolean;
  trustWorkspace?: boolean;
};

/** Registers `hs packs test`. */
export function registerTestCommand(packs: Command, ctx: CommandContext): void {
  const cmd = packs.command("test").description(
    "run a pack's guards, hooks and methods against scripted or recorded model turns",
  )
    .argument("<pack>", "the pack to test")
    .option("--script <file>", "the model turns: a test script (JSON)")
    .option("--session <dir|id>", "the model turns a session recorded (a cassette)")
    .option("--expect <file>", "expectations (a JSON array), added to the script's")
    .option("--bot <name>", "run as this bot of the pack (default: its foreground bot)")
    .option("--workspace <dir>", "the directory copied as the test's workspace (default: .)")
    .option("--keep", "keep the throwaway directory and print its path")
    .option("--json", "print the report as JSON")
    .option("--trust-workspace", "include this workspace's packs")
    .addHelpText("after", EXAMPLE);
  addFloorFlags(cmd).action(async (pack, flags) => {
    const o = flags as TestFlags;
    // the user's bots do not run here: no consent question (the test's harness approves its own)
    // `hs packs --trust-workspace test …` and `hs packs test --trust-workspace …` alike
    const trustWorkspace = o.trustWorkspace === true ||
      (packs.opts() as { trustWorkspace?: boolean }).trustWorkspace === true;
    await ctx.run({ trustWorkspace, consent: false }, async (h) => {
      if (!o.script === !o.session) {
        throw new HarnessError(
          "hs packs test needs the model's turns: --script <file> or --session <dir|id>",
          "e.g. hs packs test reviewer --script force_push.json (see hs packs test --help)",
          2,
        );
      }
      const cassette = o.script
        ? await readTestScript(resolve(ctx.cli.cwd, o.script))
        : readSessionCassette(h.sessions.dirOf(o.session!));
      const report = await h.packs.test(pack, {
        cassette,
        expect: o.expect ? await readExpectations(resolve(ctx.cli.cwd, o.expect)) : [],
        workspace: resolve(ctx.cli.cwd, o.workspace ?? "."),
        env: ctx.cli.env,
        bot: o.bot,
        keep: o.keep,
        create: (opts) => ctx.cli.createHarness(opts),
        options: { floorRequest: floorRequestOf(o, ctx.cli, false) },
      });
      if (o.json) ctx.cli.stdout(jsonForTerminal(report) + "\n");
      else {
        const st = styles(colorEnabled(ctx.cli.stdoutIsTerminal));
        for (const line of renderReport(report, st)) ctx.cli.stdout(line + "\n");
      }
      return report.passed ? 0 : 1;
    });
  });
}
