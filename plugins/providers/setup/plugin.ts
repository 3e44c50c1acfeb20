/**
 * The `providers` runtime plugin: registers the protocol adapters, the environment providers and the bundled `.conf` variants.
 *
 * @module
 */
import type { RuntimePlugin } from "../../../core/mod.ts";
import { lazyAdapter } from "./lazy_adapter.ts";
import { PROTOCOLS } from "./protocols.ts";
import { bundledConfs } from "../bundled/mod.ts";
import { confProvider, parseConf, type ProviderDeps } from "./conf.ts";
import { BUILTIN_MODELS, envProviders } from "./env_providers.ts";

/**
 * The `providers` runtime plugin: registers the three protocol adapters, the
 * `anthropic` / `openai` env providers and the bundled `.conf` providers.
 */
export function providersPlugin(deps: ProviderDeps): RuntimePlugin {
  return {
    id: "providers",
    version: "0.1.0",
    apiVersion: 1,
    setup(ctx) {
      for (const p of PROTOCOLS) {
        ctx.models.registerProtocol(
          lazyAdapter(p, deps.adapterOptions),
        );
      }
      const declared = (name: string) => (BUILTIN_MODELS[name] ?? []).map((id) => ({ id }));
      for (const provider of envProviders(deps)) {
        ctx.models.register(provider, declared(provider.name));
      }
      for (const [name, text] of Object.entries(bundledConfs)) {
        ctx.models.register(
          confProvider(name, parseConf(text, `builtin:${name}.conf`), deps),
          declared(name),
        );
      }
    },
  };
}
