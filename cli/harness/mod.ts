/**
 * How a command gets its harness: the command context, the run and agent flags, the floor flags,
 * and `withHarness` (trust and consent prompts, the floor, closing).
 *
 * @module
 */
export { type CommandContext, type RegisterCommand } from "./command.ts";
export {
  addAgentFlags,
  addRunFlags,
  type AgentFlags,
  harnessFlagsOf,
  type RunFlags,
} from "./flags.ts";
export { addFloorFlags, type FloorFlags, floorRequestOf } from "./floor_flags.ts";
export { withHarness } from "./with_harness.ts";
export { confWarnings, namedProvider, settingsWarnings } from "./config_warnings.ts";
export { checkProvider, type ProviderCheck } from "./provider_check.ts";
export { type Trusted, trustWorkspace } from "./trust_workspace.ts";
