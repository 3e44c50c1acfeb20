/**
 * The built-in `memory` plugin (seed 002): everything memory contributes comes
 * from this one plugin, so disabling it (`{"id": "memory", "enabled": false}`)
 * removes all of it —
 *
 * - the `memory` tool (`save`, `read`, `delete`, `list`);
 * - a per-turn prompt index (names and descriptions only; bodies are read with
 *   the tool);
 * - the `memory` page (entries, and a `delete` action);
 * - the background sync lifecycle: with `config.sync.dir`, entries are synced
 *   both ways at start, every `intervalSeconds`, and once more when the harness
 *   closes (newest wins; a deletion leaves a tombstone, so it propagates too).
 *   Without it, memory stays local.
 *
 * It is active in ephemeral instances too. Entries live in `config.dir`
 * (default `$HARNESS_HOME/memory`).
 *
 * @module
 */
export { type MemoryEntry, MemoryStore, syncStores } from "./store.ts";
export { type MemoryConfig, memoryPlugin } from "./plugin.ts";
