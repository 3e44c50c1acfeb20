/**
 * `Harness`: the harness with its built-in plugins — what the library's embedding face
 * (`Harness.create`) and the CLI start. It hands the kernel (core/harness.ts) the built-in
 * plugins, the `.conf` provider factory and the behavior packs' runtime (stdlib-harness/).
 *
 * @module
 */
import {
  HarnessCore,
  harnessHome,
  type HarnessOptions,
  keySourceFor,
  lookupKeyFor,
  TrustStore,
} from "../core/mod.ts";
import { lateImport } from "../core/early/mod.ts";
import { builtinPlugins, providerFactory } from "./builtins.ts";
import type * as Runtime from "../stdlib-harness/mod.ts";

// The packs' runtime (stdlib-harness/ and the Scheme interpreter) loads when a pack's program,
// state module or command is first evaluated — a harness without packs never loads it, nor
// reads its ~70 modules into its graph (core/early/late_import.ts).
// deno-lint-ignore no-explicit-any
declare const require: (path: string) => any;
const runtime = () =>
  lateImport<typeof Runtime>(
    new URL("../stdlib-harness/mod.ts", import.meta.url),
    () => require("../stdlib-harness/mod.ts" as string),
  );
const programLoader: typeof Runtime.programLoader = async (req) =>
  (await runtime()).programLoader(req);
const stateLoader: typeof Runtime.stateLoader = async (req) => (await runtime()).stateLoader(req);
const evaluateCommand: typeof Runtime.evaluateCommand = async (req) =>
  (await runtime()).evaluateCommand(req);

/**
 * The harness with its built-in plugins: providers, core tools, memory, the opt-in
 * `audit-jsonl` and `mcp`, and `connector-cloud` outside ephemeral instances.
 */
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
    const home = harnessHome(env);
    // one store: the `mcp` plugin reads the answers the harness verified
    const trust = opts.trust ?? new TrustStore(home);
    ref.core = await HarnessCore.create({
      ...opts,
      env,
      trust,
      builtinPlugins: opts.builtinPlugins ?? builtinPlugins(deps, {
        home,
        cwd,
        ephemeral: opts.ephemeral,
        cloudConnectors: opts.cloudConnectors,
        trust,
        mcpServers: opts.mcpServers,
      }),
      providerFactory: opts.providerFactory ?? providerFactory(deps),
      programLoader: opts.programLoader ?? programLoader,
      packRuntime: opts.packRuntime ?? { loadState: stateLoader, evaluateCommand },
    });
    return ref.core;
  },
};
