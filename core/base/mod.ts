/**
 * The kernel's foundation: errors, settings, paths, the log and small file
 * and text helpers, and the contracts (core/contracts/, re-exported here so
 * that every core folder finds them where it always did). Every other core
 * folder builds on it; it imports nothing of the harness but the contracts.
 *
 * @module
 */
export * from "../contracts/mod.ts";
export * from "./errors.ts";
export * from "./paths.ts";
export * from "./log.ts";
export * from "./kv.ts";
export * from "./conf_keys.ts";
export * from "./fsutil.ts";
export * from "./settle.ts";
export {
  builtinVersionAnswer,
  commandMayBeReplaced,
  REVISION,
  VERSION,
  versionLine,
} from "../early/mod.ts";
export * from "./lifecycle.ts";
export * from "./terminal_text.ts";
export * from "./safe_fs.ts";
export * from "./sessions_place.ts";
export * from "./workspace_key.ts";
export { sha256Hex } from "./sha256.ts";
export { loadYaml, type Yaml, yamlLoaded, yamlLoading, yamlNow } from "./yaml.ts";
export { PRESENCE_MARKER } from "./presence.ts";
export { type PluginModule, resolvePluginModule } from "./plugin_module.ts";
