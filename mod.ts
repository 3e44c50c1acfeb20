/**
 * Harness: an LLM agent harness you can extend in any language.
 *
 * ```ts
 * import { Harness } from "./mod.ts";
 * const harness = await Harness.create({ runtimePlugins: [{ plugin: myPlugin }] });
 * try {
 *   const r = await harness.run({ message: "hello" });
 *   console.log(r.output);
 * } finally {
 *   await harness.close();
 * }
 * ```
 *
 * @module
 */
import { HarnessCore, type HarnessOptions, keySourceFor, lookupKeyFor } from "./core/mod.ts";
import { builtinPlugins, providerFactory } from "./plugins/mod.ts";
import { programLoader } from "./stdlib-harness/mod.ts";

export * from "./core/mod.ts";

/** The harness with its built-in plugins (providers, core tools). */
export const Harness: { create(opts?: HarnessOptions): Promise<HarnessCore> } = {
  /** Creates a harness: built-in plugins, then `runtimePlugins`, then user `plugins.json`. */
  async create(opts: HarnessOptions = {}): Promise<HarnessCore> {
    const env = opts.env ?? Deno.env.toObject();
    const cwd = opts.cwd ?? Deno.cwd();
    // Stored keys, then the auth providers of runtime plugins (ctx.auth.register).
    const ref: { core?: HarnessCore } = {};
    const authProviders = () => ref.core?.registries.auth.values() ?? [];
    const deps = {
      env,
      lookupKey: lookupKeyFor(env, cwd, authProviders),
      keySource: keySourceFor(env, cwd, authProviders),
    };
    ref.core = await HarnessCore.create({
      ...opts,
      env,
      builtinPlugins: opts.builtinPlugins ?? builtinPlugins(deps),
      providerFactory: opts.providerFactory ?? providerFactory(deps),
      programLoader: opts.programLoader ?? programLoader,
    });
    return ref.core;
  },
};
