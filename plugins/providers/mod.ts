/**
 * Built-in model providers: the Anthropic Messages, OpenAI Chat Completions
 * and OpenAI Responses protocol adapters, the `anthropic` / `openai`
 * environment providers, bundled `.conf` variants and the `.auth.json` store.
 *
 * @module
 */
export * from "./wire/mod.ts";
export { bundledConfs } from "./bundled/mod.ts";
// the plugin, the providers, .conf and .auth.json: apart from the wire, so a harness loads the
// adapters on its first request (setup/lazy_adapter.ts)
export * from "./setup/mod.ts";
