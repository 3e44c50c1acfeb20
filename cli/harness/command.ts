/**
 * What a command file gets: the CLI context, a way to run with a harness, and
 * a way to report its exit code. Every command file exports
 * `register(program, ctx)`.
 *
 * @module
 */
import type { Command } from "@commander-js/extra-typings";
import type { FrontEnd } from "../../core/mod.ts";
import type { CliContext } from "../base/mod.ts";
import type { HarnessFlags } from "./with_harness.ts";

/** The context of the command being registered. */
export interface CommandContext {
  readonly cli: CliContext;
  /** Runs `fn` with a harness (trust asked first, floor from the flags) and records its code. */
  run(flags: HarnessFlags, fn: (h: FrontEnd) => Promise<number>): Promise<void>;
  /** Records the exit code of a command that needs no harness. */
  done(code: number): void;
}

/** The shape of a command file's registration. */
export type RegisterCommand = (program: Command, ctx: CommandContext) => void;
