/**
 * The one exception to "children never see keys": an executable provider is handed its
 * own credential. It gets the variables its `--env` help names (and `<NAME>_API_KEY`)
 * from hs's environment — credentials included — and, when the credential variable its
 * `--env` names is unset, the key stored for it (`hs auth set <name>`) in that variable.
 * `$HARNESS_HOME/.auth-cache.json` is refreshed first, for providers that read it.
 *
 * @module
 */
import type { FoundCredential } from "./auth.ts";
import { refreshAuthCache } from "./auth_cache.ts";

/** Options of {@link ProviderCredentials}. */
export interface ProviderCredentialsOptions {
  /** hs's environment. */
  env: Record<string, string | undefined>;
  /** `$HARNESS_HOME` (where `.auth-cache.json` goes). */
  home: string;
  /** The `.auth.json` files of every source, lowest priority first. */
  authFiles(): string[];
  /** The stored credential of a provider (auth files, then auth plugins). */
  lookup(provider: string): Promise<FoundCredential | undefined>;
}

/** A variable name in an `--env` help line (its first word). */
const VAR = /^\s*([A-Z][A-Z0-9_]*)\b/;
/** Names that hold the credential itself (where a stored key goes). */
const KEY_VAR = /(^|_)(API_KEY|APIKEY|KEY|TOKEN|ACCESS_TOKEN)$/;

/** Variable names listed by a provider's `--env` help text. */
export function envHelpNames(help: string): string[] {
  const out: string[] = [];
  for (const line of help.split("\n")) {
    const m = VAR.exec(line);
    if (m && !out.includes(m[1])) out.push(m[1]);
  }
  return out;
}

/** `<NAME>_API_KEY` of a provider name (`my-llm` → `MY_LLM_API_KEY`). */
export function conventionalKeyVar(name: string): string {
  return `${name.toUpperCase().replace(/[^A-Z0-9]+/g, "_")}_API_KEY`;
}

/** Credentials of executable providers. */
export class ProviderCredentials {
  #o: ProviderCredentialsOptions;

  /** Creates the credential lookup of executable providers. */
  constructor(opts: ProviderCredentialsOptions) {
    this.#o = opts;
  }

  /**
   * The extra environment of provider `name` whose `--env` names `names`. Never logged:
   * the caller only merges it into the provider's own environment.
   */
  async envFor(name: string, names: string[]): Promise<Record<string, string>> {
    refreshAuthCache(this.#o.home, this.#o.authFiles());
    const wanted = [...names, conventionalKeyVar(name)].filter((n) => !n.startsWith("HARNESS_"));
    const out: Record<string, string> = {};
    for (const n of wanted) {
      const v = this.#o.env[n];
      if (v) out[n] = v;
    }
    const keyVar = names.find((n) => KEY_VAR.test(n) && !n.startsWith("HARNESS_"));
    if (keyVar && !out[keyVar]) {
      const stored = await this.#o.lookup(name);
      if (stored) out[keyVar] = stored.key;
    }
    return out;
  }
}
