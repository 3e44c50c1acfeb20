/**
 * Commands from outside the built-ins: executables in `.harness/commands/` and plugin commands
 * (which may replace a built-in of their name).
 *
 * @module
 */
export {
  describeCommand,
  executableCommandNames,
  externalCommands,
  mayBeExternal,
  mayHaveCommands,
  runExternal,
  scopeFlags,
  shellWords,
  takeBuiltinRequest,
} from "./commands.ts";
export { DescribeCache } from "./describe_cache.ts";
