/**
 * The provider catalog of a harness, wired: registered models, `.conf`
 * support from the providers plugin, and executable providers with their
 * own credentials (a key, `.auth-cache.json` for those that read it).
 *
 * @module
 */
import type { ChildEnvRequest } from "./base/mod.ts";
import type { HarnessConfig } from "./config/mod.ts";
import type { Discovery } from "./discovery/mod.ts";
import type { Registries } from "./plugins/mod.ts";
import {
  credentialLookup,
  ProviderCatalog,
  ProviderCredentials,
  type ProviderFactory,
  sourceAuthFiles,
} from "./providers/mod.ts";

/** What the catalog is built from. */
export interface ProviderWiring {
  /** The harness's environment. */
  env: Record<string, string | undefined>;
  /** `$HARNESS_HOME`. */
  home: string;
  /** The working directory. */
  cwd: string;
  /** The registries (models, auth providers). */
  registries: Pick<Registries, "models" | "auth">;
  /** Discovery (the sources' auth files). */
  discovery: Pick<Discovery, "current">;
  /** The environment of a child process. */
  childEnv(req: ChildEnvRequest): Record<string, string>;
  /** The settings (timeouts, output limit). */
  config: HarnessConfig;
  /** HARNESS_LOG. */
  log(line: string): void;
  /** `.conf` support (from the providers plugin). */
  factory?: ProviderFactory;
}

/** The providers of a harness: registered, `.conf`, executable. */
export function providerCatalog(w: ProviderWiring): ProviderCatalog {
  const credentials = new ProviderCredentials({
    env: w.env,
    home: w.home,
    authFiles: () => sourceAuthFiles(w.discovery.current(), w.home),
    lookup: credentialLookup(w.env, w.cwd, () => w.registries.auth.values()),
  });
  return new ProviderCatalog({
    registered: () =>
      w.registries.models.entries().map((e) => ({
        name: e.key,
        provider: e.value.provider,
        owner: e.owner,
        models: e.value.models.map((m) => m.id),
        modelDefs: e.value.models,
      })),
    factory: w.factory,
    executables: {
      env: (stage, x) => w.childEnv({ stage, ...x }),
      cwd: w.cwd,
      log: w.log,
      timeoutMs: w.config.providerTimeoutMs,
      maxResponseBytes: w.config.hookOutputLimit,
      credentials: (name, names) => credentials.envFor(name, names),
    },
  });
}
