/**
 * The provider catalog: providers registered by runtime plugins (built-in
 * environment providers, bundled `.conf` variants, plugin models), then the
 * discovered ones — `.conf` variants and executables, more local later, a
 * discovered one replacing a registered one of the same name.
 *
 * `.conf` files are parsed once per mtime; problems are kept for `hs doctor`
 * and `hs providers`.
 *
 * @module
 */
import {
  type ModelDefinition,
  type ModelProvider,
  type Owner,
  ownerLabel,
  parseKeyValues,
  readTextOrUndefined,
  statOrUndefined,
} from "../base/mod.ts";
import type { FoundProvider } from "../discovery/mod.ts";
import { type ExecProviderDeps, executableProvider } from "./executable_provider.ts";

/** Builds providers from `.conf` files (supplied by the providers plugin). */
export interface ProviderFactory {
  /** A provider from a `.conf` variant file's text. Throws a HarnessError on a bad file. */
  fromConf(name: string, text: string, path: string): ModelProvider;
  /** `auth_env` named by a `.conf` text, if any (to keep it out of child environments). */
  authEnvOf?(text: string): string | undefined;
  /** What a `.conf` text says that its reader ignores (unknown keys), one line each. */
  warnings?(text: string, path: string): string[];
}

/** A provider as seen by resolution and `hs providers`. */
export interface ProviderInfo {
  /** The provider's name (`--provider`). */
  name: string;
  /** The model provider itself. */
  provider: ModelProvider;
  /** Where it came from: "builtin", a `.conf` path, an executable path, "plugin:<id>". */
  origin: string;
  /** Whether auto-detection may pick it. */
  autodetect: boolean;
  /** Model ids it declared (`ctx.models.register(provider, models)`); selecting one picks it. */
  models?: string[];
  /** The models it declared, with their context window and output limit when given. */
  modelDefs?: ModelDefinition[];
}

/** A provider registered by a runtime plugin. */
export interface RegisteredProvider {
  /** The provider's name. */
  name: string;
  /** The model provider itself. */
  provider: ModelProvider;
  /** The plugin that registered it. */
  owner: Owner;
  /** The ids of the models it declared. */
  models: string[];
  /** The declared models in full (window, output limit). */
  modelDefs?: ModelDefinition[];
}

/** Options of {@link ProviderCatalog}. */
export interface ProviderCatalogOptions {
  /** Providers registered by runtime plugins, in registration order. */
  registered(): RegisteredProvider[];
  /** `.conf` support (absent: `.conf` files are reported as unusable). */
  factory?: ProviderFactory;
  /** What executable providers need (environment, cwd, log, timeout). */
  executables: ExecProviderDeps;
}

/** A problem with a `.conf` file. */
export interface ConfProblem {
  /** The `.conf` file. */
  path: string;
  /** What is wrong with it. */
  reason: string;
}

/** Every provider of a harness. */
export class ProviderCatalog {
  #o: ProviderCatalogOptions;
  #confs = new Map<
    string,
    { mtime: number; provider?: ModelProvider; error?: string; warnings?: string[] }
  >();
  #execs = new Map<string, ModelProvider>();

  /** Creates a catalog over registered, `.conf` and executable providers. */
  constructor(opts: ProviderCatalogOptions) {
    this.#o = opts;
  }

  /** `auth_env` of a `.conf` text. */
  authEnvOf(text: string): string | undefined {
    return this.#o.factory?.authEnvOf?.(text) ?? (parseKeyValues(text).auth_env || undefined);
  }

  /** Every provider: registered ones first, then discovered ones (more local later). */
  list(found: Iterable<FoundProvider>): ProviderInfo[] {
    const byName = new Map<string, ProviderInfo>();
    for (const r of this.#o.registered()) {
      byName.set(r.name, {
        name: r.name,
        provider: r.provider,
        origin: r.owner.kind === "builtin" ? "builtin" : ownerLabel(r.owner),
        autodetect: (r.provider as { autodetect?: boolean }).autodetect !== false,
        models: r.models,
        modelDefs: r.modelDefs,
      });
    }
    for (const f of found) {
      if (f.kind === "conf") {
        const p = this.#conf(f.name, f.path);
        if (!p) continue;
        const ae = this.authEnvOf(readTextOrUndefined(f.path) ?? "");
        byName.delete(f.name);
        byName.set(f.name, { name: f.name, provider: p, origin: f.path, autodetect: !!ae });
      } else {
        let p = this.#execs.get(f.path);
        if (!p) {
          const deps = this.#o.executables;
          p = executableProvider(f.name, f.path, {
            ...deps,
            env: (stage, x) => deps.env(stage, { provider: f.name, ...x }),
          });
          this.#execs.set(f.path, p);
        }
        byName.delete(f.name);
        byName.set(f.name, { name: f.name, provider: p, origin: f.path, autodetect: true });
      }
    }
    return [...byName.values()];
  }

  /** Warnings (unknown keys) of the `.conf` files seen so far, one per line of a file. */
  warnings(): ConfProblem[] {
    const out: ConfProblem[] = [];
    for (const [path, e] of this.#confs) {
      for (const w of e.warnings ?? []) out.push({ path, reason: w });
    }
    return out;
  }

  /** Problems with the `.conf` files seen so far. */
  problems(): ConfProblem[] {
    const out: ConfProblem[] = [];
    for (const [path, e] of this.#confs) if (e.error) out.push({ path, reason: e.error });
    return out;
  }

  #conf(name: string, path: string): ModelProvider | undefined {
    const mtime = statOrUndefined(path)?.mtime?.getTime() ?? -1;
    const hit = this.#confs.get(path);
    if (hit && hit.mtime === mtime) return hit.provider;
    let entry: { mtime: number; provider?: ModelProvider; error?: string; warnings?: string[] };
    if (!this.#o.factory) {
      entry = { mtime, error: ".conf providers need the providers plugin" };
    } else {
      const text = readTextOrUndefined(path) ?? "";
      const warnings = this.#o.factory.warnings?.(text, path);
      try {
        entry = { mtime, provider: this.#o.factory.fromConf(name, text, path), warnings };
      } catch (err) {
        entry = { mtime, error: (err as Error).message, warnings };
      }
    }
    this.#confs.set(path, entry);
    return entry.provider;
  }
}
