/**
 * The built-in runtime plugins, registered exactly like a user's plugins.
 *
 * @module
 */
import type { ProviderFactory, RuntimePluginEntry } from "../core/mod.ts";
import { coreToolsPlugin } from "./core_tools/mod.ts";
import { confProvider, parseConf, type ProviderDeps, providersPlugin } from "./providers/mod.ts";

/** Built-in plugin entries for a harness with the given environment and key lookup. */
export function builtinPlugins(deps: ProviderDeps): RuntimePluginEntry[] {
  return [
    { plugin: providersPlugin(deps) as RuntimePluginEntry["plugin"], required: true },
    { plugin: coreToolsPlugin as RuntimePluginEntry["plugin"], required: true },
  ];
}

/** `.conf` support for discovered provider variants. */
export function providerFactory(deps: ProviderDeps): ProviderFactory {
  return {
    fromConf: (name, text, path) => confProvider(name, parseConf(text, path), deps),
    authEnvOf: (text) => {
      for (const line of text.split("\n")) {
        const m = /^auth_env=(.*)$/.exec(line.trim());
        if (m) return m[1].trim() || undefined;
      }
      return undefined;
    },
  };
}
