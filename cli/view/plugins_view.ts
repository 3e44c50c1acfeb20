/**
 * The runtime plugins as `hs plugins` and the REPL's `/plugins` show them: id, version,
 * state, contributions and, for a failure, the host's reason; and as `--json` data.
 *
 * @module
 */
import type { FrontEnd } from "../../core/mod.ts";
import { sanitizeForTerminal as safe, styles } from "./render.ts";

/** One plugin as `hs plugins --json` prints it. */
export interface PluginReport {
  id: string;
  version: string;
  state: string;
  required: boolean;
  builtin: boolean;
  reason?: string;
  contributions: Record<string, string[]>;
}

/** The report of every plugin of a harness, in configured order. */
export function pluginReports(h: FrontEnd): PluginReport[] {
  return h.admin.runtimePluginStatus().map((s) => ({
    id: s.id,
    version: s.version,
    state: s.state,
    required: s.required,
    builtin: s.builtin,
    ...(s.reason ? { reason: s.reason } : {}),
    contributions: h.admin.contributions(s.id),
  }));
}

/** The plugin listing as text lines (shared with the REPL's `/plugins`). */
export function pluginLines(h: FrontEnd, color: boolean): string[] {
  const st = styles(color);
  const lines: string[] = [];
  for (const p of pluginReports(h)) {
    const state = p.state === "active"
      ? st.green(p.state)
      : p.state === "failed"
      ? st.red(p.state)
      : p.state === "degraded"
      ? st.yellow(p.state)
      : st.dim(p.state);
    const tags = [p.builtin ? "built-in" : "", p.required ? "" : "optional"].filter(Boolean);
    lines.push(
      `${st.bold(safe(p.id.padEnd(18)))} ${safe(p.version.padEnd(8))} ${state}${
        tags.length ? st.dim(` (${tags.join(", ")})`) : ""
      }${p.reason ? ` — ${safe(p.reason)}` : ""}`,
    );
    for (const [kind, keys] of Object.entries(p.contributions)) {
      const shown = keys.length > 8 ? [...keys.slice(0, 8), `… ${keys.length - 8} more`] : keys;
      lines.push(st.dim(safe(`    ${kind}s: ${shown.join(", ")}`)));
    }
  }
  lines.push(...packLines(h, st));
  return lines;
}

/** The behavior packs, one line (they are the third extension form; `hs packs` details them). */
function packLines(h: FrontEnd, st: ReturnType<typeof styles>): string[] {
  const packs = h.packs.list();
  if (packs.length === 0) return [st.dim("behavior packs: none (hs packs)")];
  const names = packs.map((p) => `${p.manifest?.name ?? p.dir}${p.error ? " (load error)" : ""}`);
  return [
    `${st.bold("behavior packs")}: ${safe(names.join(", "))} ${st.dim("— details: hs packs")}`,
  ];
}
