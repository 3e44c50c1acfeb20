/**
 * The built-in hooks of the `resolve` stage (PROTOCOLS "Hook pipeline"):
 * `10-settings`, `20-detect`, `30-defaults`, under the reference names so
 * that a same-basename executable in `.harness/hooks.d/resolve/` replaces one.
 *
 * @module
 */
import { HarnessError } from "../base/mod.ts";
import { type StageHook, stageHook } from "./stage.ts";
import { str } from "./values.ts";

/** `resolve` hooks: settings, auto-detect, defaults. */
export const resolveHooks: StageHook[] = [
  stageHook({
    stage: "resolve",
    name: "10-settings",
    run(input, ctx) {
      const s = ctx.resolve.settings();
      let provider = str(input.provider);
      let model = str(input.model);
      const providerWasEmpty = provider === "";
      if (!provider && s.provider) provider = s.provider;
      if (providerWasEmpty && !model && s.model) model = s.model;
      return Promise.resolve({ ...input, provider, model });
    },
  }),
  stageHook({
    stage: "resolve",
    name: "20-detect",
    async run(input, ctx) {
      if (str(input.provider)) return input;
      const all = await ctx.resolve.providers();
      // A model declared by a provider (runtime plugins) selects that provider.
      const owner = str(input.model) && all.find((p) => p.models?.includes(str(input.model)));
      if (owner) return { ...input, provider: owner.name };
      for (const p of all) {
        if (!p.autodetect) continue;
        if ((await p.provider.ready()).ready) return { ...input, provider: p.name };
      }
      throw new HarnessError(
        "no ready provider found — set HARNESS_PROVIDER or run: hs auth set <provider>",
      );
    },
  }),
  stageHook({
    stage: "resolve",
    name: "30-defaults",
    async run(input, ctx) {
      const provider = str(input.provider);
      if (!provider || str(input.model)) return input;
      const p = (await ctx.resolve.providers()).find((x) => x.name === provider);
      const model = p ? (await p.provider.defaultModel()) || p.models?.[0] || "" : "";
      return { ...input, model };
    },
  }),
];
