/**
 * `hs providers [name] [--json]`: every provider and `.conf` variant (built-in
 * environment providers, bundled `.conf`s, discovered `.conf` files and
 * executables, runtime-plugin providers) with origin, protocol, default model,
 * readiness and why, and which one resolution would pick and why. Never
 * prints a key: readiness reasons name variables and files only.
 *
 * @module
 */
import type { Command } from "@commander-js/extra-typings";
import type { FrontEnd, ProviderInfo } from "../../core/mod.ts";
import {
  displayPath,
  errorMessage,
  HarnessError,
  ownerLabel,
  parseKeyValues,
  readTextOrUndefined,
} from "../../core/base/mod.ts";
import { colorEnabled, jsonForTerminal, sanitizeForTerminal, styles } from "../view/mod.ts";
import type { CliContext } from "../base/mod.ts";
import type { CommandContext } from "../harness/mod.ts";

/** Where a provider comes from. */
export type ProviderKind = "environment" | "bundled" | "conf" | "executable" | "plugin";

/** One row of `hs providers` (also its `--json` shape). */
export interface ProviderRow {
  name: string;
  kind: ProviderKind;
  /** "built-in", a file path (with `~`), or `plugin:<id>`. */
  origin: string;
  protocol: string;
  /** Default model ("" when none). */
  model: string;
  /** Models declared by a runtime plugin. */
  models: string[];
  description: string;
  ready: boolean;
  /** Why (never contains a key). */
  reason: string;
  /** Whether auto-detection may pick it. */
  autodetect: boolean;
  /** Set when this file replaces a built-in provider of the same name. */
  overrides?: string;
  /** Set when the file could not be used (bad `.conf`). */
  error?: string;
}

/** What resolution would pick, and why. */
export interface Selection {
  provider?: string;
  model?: string;
  /** Why this provider. */
  providerWhy?: string;
  /** Why this model. */
  modelWhy?: string;
  /** Why nothing could be picked. */
  error?: string;
}

const ENV_PROVIDERS = new Set(["anthropic", "openai"]);

/** The protocol shown for an executable provider that does not say which one it speaks. */
const UNKNOWN = "unknown";

function kindOf(info: ProviderInfo): ProviderKind {
  if (info.origin === "builtin") return ENV_PROVIDERS.has(info.name) ? "environment" : "bundled";
  if (info.origin.startsWith("plugin:")) return "plugin";
  return info.origin.endsWith(".conf") ? "conf" : "executable";
}

type ExecExtras = {
  kind?: string;
  detectProtocol?: () => Promise<string>;
  declaredProtocol?: () => Promise<string | undefined>;
  describe?: () => Promise<string>;
  envHelp?: () => Promise<string>;
};

/** Text a provider or .conf supplied, its control characters as pictures. */
const shown = (s: string | undefined): string => sanitizeForTerminal(s ?? "");

async function safe<T>(fn: () => Promise<T>, fallback: (err: unknown) => T): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    return fallback(err);
  }
}

/** Builds one row (runs `--ready`, `--defaults`, `--describe` of executables). */
async function rowOf(h: FrontEnd, info: ProviderInfo): Promise<ProviderRow> {
  const p = info.provider;
  const x = p as unknown as ExecExtras;
  const kind = kindOf(info);
  // An executable says which protocol it speaks (`--defaults` protocol=, its name, its
  // pack's name); when nothing does, it is shown as unknown rather than guessed.
  const protocol = x.declaredProtocol
    ? await safe(async () => (await x.declaredProtocol!()) ?? UNKNOWN, () => UNKNOWN)
    : x.detectProtocol
    ? await safe(() => x.detectProtocol!(), () => p.protocol)
    : p.protocol;
  const described = x.describe ? await safe(() => x.describe!(), () => "") : "";
  const model = await safe(() => p.defaultModel(), () => "");
  const readiness = await safe(
    () => p.ready(),
    (err) => ({ ready: false, reason: `readiness check failed: ${errorMessage(err)}` }),
  );
  let reason = readiness.reason;
  if (readiness.ready && !info.autodetect) {
    reason += " (not auto-detected: select it with --provider or settings.conf)";
  }
  const row: ProviderRow = {
    name: info.name,
    kind,
    origin: kind === "environment" || kind === "bundled"
      ? "built-in"
      : kind === "plugin"
      ? info.origin
      : displayPath(info.origin, h.env),
    protocol,
    model: model || info.models?.[0] || "",
    models: info.models ?? [],
    description: described || p.description,
    ready: readiness.ready,
    reason,
    autodetect: info.autodetect,
  };
  const owner = kind === "conf" || kind === "executable"
    ? h.catalog.modelsOwner(info.name)
    : undefined;
  if (owner) row.overrides = owner.kind === "builtin" ? "built-in" : ownerLabel(owner);
  return row;
}

/** Every provider (in auto-detect order) plus unusable `.conf` files. */
export async function providerRows(h: FrontEnd): Promise<ProviderRow[]> {
  const infos = await h.catalog.providers();
  const rows = await Promise.all(infos.map((i) => rowOf(h, i)));
  for (const bad of h.catalog.confProblems()) {
    const name = bad.path.split("/").pop()!.replace(/\.conf$/, "");
    if (rows.some((r) => r.origin === displayPath(bad.path, h.env))) continue;
    rows.push({
      name,
      kind: "conf",
      origin: displayPath(bad.path, h.env),
      protocol: "",
      model: "",
      models: [],
      description: "",
      ready: false,
      reason: `unusable .conf: ${bad.reason}`,
      autodetect: false,
      error: bad.reason,
    });
  }
  return rows;
}

/** What `hs` would pick now (running the `resolve` stage) and why. */
export async function selection(h: FrontEnd, rows: ProviderRow[]): Promise<Selection> {
  const envProvider = h.settings.provider;
  const envModel = h.settings.model;
  let picked: { provider: string; model: string };
  try {
    picked = await h.catalog.resolve(envProvider, envModel);
  } catch (err) {
    return { error: errorMessage(err) };
  }
  const settingsFile = h.catalog.snapshot().settingsFile;
  const settings = settingsFile ? parseKeyValues(readTextOrUndefined(settingsFile) ?? "") : {};
  const where = settingsFile ? displayPath(settingsFile, h.env) : "settings.conf";
  const row = rows.find((r) => r.name === picked.provider);
  let providerWhy: string;
  if (envProvider) providerWhy = `HARNESS_PROVIDER=${envProvider}`;
  else if (settings.provider === picked.provider) providerWhy = `provider= in ${where}`;
  else if (
    (envModel || settings.model) === picked.model && picked.model &&
    row?.models.includes(picked.model)
  ) {
    providerWhy = `it declares model ${picked.model}`;
  } else providerWhy = `auto-detect: the first ready provider (${row?.reason ?? "ready"})`;
  let modelWhy: string;
  if (envModel) modelWhy = `HARNESS_MODEL=${envModel}`;
  else if (!envProvider && settings.model && settings.model === picked.model) {
    modelWhy = `model= in ${where}`;
  } else if (row?.kind === "executable") modelWhy = "the provider's --defaults";
  else if (row?.kind === "conf" || row?.kind === "bundled") modelWhy = "model= of its .conf";
  else modelWhy = "the provider's default model";
  return { provider: picked.provider, model: picked.model, providerWhy, modelWhy };
}

/** Runs `hs providers`. */
export async function providersCommand(
  h: FrontEnd,
  cli: CliContext,
  opts: { name?: string; json?: boolean },
): Promise<number> {
  const rows = await providerRows(h);
  const sel = await selection(h, rows);
  if (opts.name !== undefined) {
    const row = rows.find((r) => r.name === opts.name);
    if (!row) {
      throw new HarnessError(
        `unknown provider "${opts.name}"`,
        `known: ${rows.map((r) => r.name).join(", ")}`,
      );
    }
    const info = (await h.catalog.providers()).find((i) => i.name === row.name);
    const x = info?.provider as unknown as ExecExtras | undefined;
    const envHelp = x?.envHelp ? await safe(() => x.envHelp!(), () => "") : "";
    if (opts.json) {
      cli.stdout(jsonForTerminal({ ...row, env: envHelp || undefined }) + "\n");
      return 0;
    }
    printDetails(row, envHelp, sel, cli);
    return 0;
  }
  if (opts.json) {
    cli.stdout(jsonForTerminal({ providers: rows, selected: sel }) + "\n");
    return 0;
  }
  printTable(rows, sel, cli);
  return 0;
}

function printTable(rows: ProviderRow[], sel: Selection, cli: CliContext): void {
  const st = styles(colorEnabled(cli.stdoutIsTerminal));
  const w = (k: keyof ProviderRow, min: number) =>
    Math.max(min, ...rows.map((r) => String(r[k]).length));
  const [wn, wp, wm] = [w("name", 8), w("protocol", 8), Math.min(w("model", 5), 32)];
  cli.stdout(
    st.dim(
      `  ${"NAME".padEnd(wn)}  ${"PROTOCOL".padEnd(wp)}  ${"MODEL".padEnd(wm)}  READY  WHY\n`,
    ),
  );
  for (const r of rows) {
    const mark = r.name === sel.provider ? st.green("*") : " ";
    const ready = r.ready ? st.green("yes  ") : st.red("no   ");
    cli.stdout(
      `${mark} ${st.bold(shown(r.name.padEnd(wn)))}  ${shown(r.protocol.padEnd(wp))}  ${
        shown((r.model || "-").padEnd(wm))
      }  ${ready}  ${shown(r.reason)}\n`,
    );
    const extra = [
      r.origin,
      r.kind === "environment"
        ? "environment provider"
        : r.kind === "bundled"
        ? "bundled .conf"
        : "",
      r.overrides ? `overrides the ${r.overrides} ${r.name}` : "",
      r.description,
      r.models.length ? `models: ${r.models.join(", ")}` : "",
    ].filter(Boolean).join(" · ");
    cli.stdout(st.dim(shown(`    ${extra}\n`)));
  }
  cli.stdout("\n");
  if (sel.error) {
    cli.stdout(`${st.yellow("no provider would be selected")}: ${shown(sel.error)}\n`);
    return;
  }
  cli.stdout(
    `${st.green("*")} selected: ${st.bold(shown(sel.provider!))} — ${shown(sel.providerWhy)}\n` +
      shown(`  model: ${sel.model || "(none)"} — ${sel.modelWhy}\n`),
  );
}

function printDetails(row: ProviderRow, envHelp: string, sel: Selection, cli: CliContext): void {
  const lines = [
    `name:        ${row.name}${row.name === sel.provider ? " (selected)" : ""}`,
    `kind:        ${row.kind}`,
    `origin:      ${row.origin}`,
    `protocol:    ${row.protocol || "-"}${
      row.protocol === UNKNOWN
        ? " (its --defaults prints no protocol=; messages go Anthropic-shaped)"
        : ""
    }`,
    `model:       ${row.model || "-"}`,
    ...(row.models.length ? [`models:      ${row.models.join(", ")}`] : []),
    `description: ${row.description || "-"}`,
    `ready:       ${row.ready ? "yes" : "no"} — ${row.reason}`,
    `auto-detect: ${row.autodetect ? "yes" : "no"}`,
    ...(row.overrides ? [`overrides:   ${row.overrides}`] : []),
  ];
  cli.stdout(shown(lines.join("\n") + "\n"));
  if (envHelp) cli.stdout(`\nenvironment (--env):\n${shown(envHelp)}\n`);
}

/** Registers `hs providers`. */
export function register(program: Command, ctx: CommandContext): void {
  program.command("providers")
    .description("list providers and .conf variants, their readiness and which one is used")
    .argument("[name]", "show one provider in detail (with its --env help)")
    .option("--json", "print the listing as JSON")
    .option("--trust-workspace", "include this workspace's executables")
    .action(async (name, o) => {
      await ctx.run(o, (h) => providersCommand(h, ctx.cli, { name, json: o.json === true }));
    });
}
