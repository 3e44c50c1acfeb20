/**
 * Provider resolution: the `resolve` stage (settings, auto-detect, defaults,
 * plus any `hooks.d/resolve/` executables) turned into a provider and model,
 * or an error that says what to do.
 *
 * @module
 */
import { HarnessError } from "../base/mod.ts";
import type { Snapshot } from "../discovery/mod.ts";
import type { StageRunner } from "./stage_runner.ts";
import type { ResolveApi } from "./turn_host.ts";
import { str } from "./values.ts";

/** The outcome of resolution. */
export interface Resolved {
  /** The provider chosen. */
  provider: string;
  /** The model chosen. */
  model: string;
}

/** Runs the `resolve` stage; throws a HarnessError when no provider is found or it is unknown. */
export async function resolveProvider(
  stages: StageRunner,
  api: ResolveApi,
  wanted: Resolved,
  at: { snapshot: Snapshot; cwd: string },
): Promise<Resolved> {
  const controller = new AbortController();
  const r = await stages.run("resolve", { ...wanted }, {
    kind: "resolve",
    signal: controller.signal,
    resolve: api,
  }, {
    snapshot: at.snapshot,
    cwd: at.cwd,
    signal: controller.signal,
    provider: wanted.provider,
    model: wanted.model,
  });
  if (!r.ok) {
    const msg = str(r.output.error) || "provider resolution failed";
    throw new HarnessError(msg, "run `hs providers` to see what is available");
  }
  const provider = str(r.output.provider);
  const model = str(r.output.model);
  if (!(await api.providers()).some((x) => x.name === provider)) {
    const problem = api.problem?.(provider);
    if (problem) {
      throw new HarnessError(
        `provider "${provider}" cannot be used: ${problem}`,
        "fix that line of the .conf (hs doctor lists every provider problem)",
      );
    }
    throw new HarnessError(
      `unknown provider "${provider}"`,
      "run `hs providers` to list providers, or add providers/<name>.conf to a .harness/",
    );
  }
  return { provider, model };
}
