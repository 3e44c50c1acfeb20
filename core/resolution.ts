/**
 * Provider and model resolution for a run: the `resolve` stage chain, given
 * the providers of a snapshot, the most local `settings.conf` and the
 * problems of broken `.conf` files.
 *
 * @module
 */
import { parseKeyValues, readTextOrUndefined } from "./base/mod.ts";
import type { Snapshot } from "./discovery/mod.ts";
import { type ResolveApi, resolveProvider, type StageRunner } from "./loop/mod.ts";
import type { ProviderInfo } from "./providers/mod.ts";

/** What resolution reads. */
export interface ResolutionInputs {
  /** Runs the `resolve` stage. */
  stages: StageRunner;
  /** The discovery snapshot the providers and settings come from. */
  snapshot: Snapshot;
  /** The working directory of the stage's executable hooks. */
  cwd: string;
  /** The providers of a snapshot. */
  providers(snap: Snapshot): Promise<ProviderInfo[]>;
  /** Problems of `.conf` files. */
  problems(): { path: string; reason: string }[];
}

/** Resolves provider and model through the `resolve` stage chain. */
export function resolveModel(
  inputs: ResolutionInputs,
  provider: string,
  model: string,
): Promise<{ provider: string; model: string }> {
  const { snapshot } = inputs;
  const api: ResolveApi = {
    providers: () => inputs.providers(snapshot),
    settings: () => {
      if (!snapshot.settingsFile) return {};
      const kv = parseKeyValues(readTextOrUndefined(snapshot.settingsFile) ?? "");
      return { provider: kv.provider || undefined, model: kv.model || undefined };
    },
    problem: (name) => inputs.problems().find((p) => p.path.endsWith(`/${name}.conf`))?.reason,
  };
  return resolveProvider(inputs.stages, api, { provider, model }, {
    snapshot,
    cwd: inputs.cwd,
  });
}
