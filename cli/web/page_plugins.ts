/**
 * `/plugins` — runtime plugins (state, contributions, the host's reason for a
 * failure), behavior packs and their bots (state, reasons, guards waiting for
 * consent, with the button that approves them) and the plugins' pages — and
 * a plugin page itself, rendered by the host from its descriptor and its
 * `read` data, with its actions as buttons.
 *
 * @module
 */
import type { BotState, Json, PackState, PageInfo, PluginStatus } from "../../core/mod.ts";
import { type Html, markup } from "./html.ts";
import { type ActionTarget, view } from "./data_view.ts";

/** A runtime plugin with what it contributed. */
export interface PluginRow {
  status: PluginStatus;
  contributions: Record<string, string[]>;
}

/** A bot waiting for consent, as the banner and `/plugins` show it. */
export interface ConsentItem {
  pack: string;
  bot: string;
  guards: { guard: string; point: string; loc: string }[];
}

/** A state as a badge: good (green), bad (red), wait (amber: usable with a problem, or waiting). */
export function stateBadge(state: string): Html {
  const good = ["active", "attached", "ready", "no behavior"];
  const cls = good.includes(state)
    ? "good"
    : state === "failed" || state === "not attached"
    ? "bad"
    : state === "awaiting approval" || state === "degraded"
    ? "wait"
    : "";
  return markup`<span class="badge ${cls}">${state}</span>`;
}

/** The form that approves a bot's guards. */
export function approveForm(c: { pack: string; bot: string }): Html {
  return markup`<form method="post" action="/packs/approve" class="inline"><input type="hidden" name="pack" value="${c.pack}"><input type="hidden" name="bot" value="${c.bot}"><button type="submit" class="primary small" aria-label="Approve the guards of ${c.pack}/${c.bot}">Approve</button></form>`;
}

/** The banner of bots waiting for consent (on every page but `/plugins` while there are some). */
export function consentBanner(items: ConsentItem[]): Html | undefined {
  if (items.length === 0) return undefined;
  const which = items.map((c) =>
    markup`<span class="mono">${c.pack}/${c.bot}</span> declares ${c.guards.length} guard(s) that run on every matching call. `
  );
  return markup`<aside class="banner" aria-label="Consent"><strong>Behavior packs wait for your consent.</strong> ${which}<a href="/plugins#packs">Review them</a></aside>`;
}

function pluginTable(plugins: PluginRow[]): Html {
  const rows = plugins.map((p) => {
    const s = p.status;
    const tags = [s.builtin ? "built-in" : "", s.required ? "" : "optional"].filter(Boolean);
    const tagText = tags.length ? markup` <span class="muted">${tags.join(", ")}</span>` : "";
    const reason = s.reason ? markup`<div class="muted">${s.reason}</div>` : "";
    const contributions = Object.entries(p.contributions).map(([kind, keys]) =>
      markup`<div><span class="muted">${kind}s:</span> <span class="mono">${
        keys.join(", ")
      }</span></div>`
    );
    return markup`<tr><td class="mono"><strong>${s.id}</strong></td><td class="mono">${s.version}</td><td>${
      stateBadge(s.state)
    }${tagText}${reason}</td><td>${contributions}</td></tr>`;
  });
  return markup`<div class="table-wrap"><table class="data"><thead><tr><th scope="col">Plugin</th><th scope="col">Version</th><th scope="col">State</th><th scope="col">Contributions</th></tr></thead><tbody>${rows}</tbody></table></div>`;
}

function botRow(b: BotState): Html {
  const tools = b.spec.tools
    ? markup`<div class="muted">tools: ${b.spec.tools.join(", ")}</div>`
    : "";
  const attach = b.spec.attach === "foreground"
    ? "foreground"
    : `named, ${b.spec.scope ?? "session"} scope`;
  const reason = b.reason ? markup`<div class="muted">${b.reason}</div>` : "";
  const pending = b.pending.length
    ? markup`<ul>${
      b.pending.map((g) =>
        markup`<li><span class="mono">${g.guard}</span> (${g.point}) <span class="muted mono">${g.loc}</span></li>`
      )
    }</ul>${approveForm({ pack: b.pack.name, bot: b.spec.name })}`
    : "";
  return markup`<tr><td class="mono"><strong>${b.spec.name}</strong>${tools}</td><td>${attach}</td><td>${
    stateBadge(b.status)
  }${reason}${pending}</td></tr>`;
}

function packCard(p: PackState): Html {
  const m = p.manifest;
  const error = p.error ? markup`<p class="notice error">Load error: ${p.error}</p>` : "";
  const description = m?.description ? markup`<p>${m.description}</p>` : "";
  const bots = p.bots.length
    ? markup`<table class="data"><thead><tr><th scope="col">Bot</th><th scope="col">Attach</th><th scope="col">State</th></tr></thead><tbody>${
      p.bots.map(botRow)
    }</tbody></table>`
    : "";
  const notices = (m?.notices ?? []).map((n) => markup`<p class="muted">notice: ${n}</p>`);
  return markup`<div class="card"><h3>${m?.name ?? p.dir} <span class="muted">${
    m?.version ?? ""
  }</span></h3><p class="muted mono">${p.dir}</p>${error}${description}${bots}${notices}</div>`;
}

/** The `/plugins` page's main content. */
export function pluginsBody(
  plugins: PluginRow[],
  packs: PackState[],
  pages: PageInfo[],
  notice?: string,
): Html {
  const packList = packs.length
    ? packs.map(packCard)
    : markup`<p class="muted">No behavior packs (put them in <code>$HARNESS_HOME/packs/</code> or <code>.harness/packs/</code>).</p>`;
  const pageList = pages.length
    ? markup`<ul>${
      pages.map((p) =>
        markup`<li><a href="/p/${encodeURIComponent(p.id)}">${p.title}</a> <span class="muted">— ${
          p.description ?? ""
        } (${p.owner})</span></li>`
      )
    }</ul>`
    : markup`<p class="muted">No plugin pages.</p>`;
  const note = notice ? markup`<p class="notice" role="status">${notice}</p>` : "";
  return markup`<h1>Plugins</h1>${note}<h2 id="runtime">Runtime plugins</h2>${
    pluginTable(plugins)
  }<h2 id="packs">Behavior packs and bots</h2>${packList}<h2 id="pages">Pages</h2>${pageList}`;
}

/** What a plugin page shows. */
export interface PluginPageView {
  page: PageInfo;
  /** The data `read` returned, or why it could not be read. */
  data: { ok: true; value: Json } | { ok: false; error: string };
  /** The outcome of an action just performed. */
  result?: { action: string; ok: true; value: Json } | { action: string; ok: false; error: string };
}

function resultBox(v: PluginPageView): Html | "" {
  const r = v.result;
  if (!r) return "";
  if (!r.ok) return markup`<p class="notice error result-box" role="alert">${r.error}</p>`;
  const label = v.page.actions.find((a) => a.name === r.action)?.label ?? r.action;
  return markup`<section class="card result-box" role="status" aria-label="Result"><h3>${label}: done</h3>${
    view(r.value)
  }</section>`;
}

function actionForms(v: PluginPageView, url: string): Html | "" {
  if (v.page.actions.length === 0) return "";
  const forms = v.page.actions.map((a) =>
    markup`<form method="post" action="${url}" class="page-action"><input type="hidden" name="action" value="${a.name}"><details><summary>Arguments for ${a.label}</summary><label for="args-${a.name}">Arguments (JSON)</label><textarea id="args-${a.name}" name="args" rows="2" class="mono">{}</textarea></details><button type="submit">${a.label}</button></form>`
  );
  return markup`<section class="card" aria-labelledby="page-actions"><h3 id="page-actions">Page actions</h3>${forms}</section>`;
}

/** A plugin page's main content. */
export function pluginPageBody(v: PluginPageView): Html {
  const url = `/p/${encodeURIComponent(v.page.id)}/action`;
  const target: ActionTarget = { url, actions: v.page.actions };
  const data = v.data.ok
    ? markup`<section class="page-data" aria-label="${v.page.title}">${
      view(v.data.value, target)
    }</section>`
    : markup`<p class="notice error" role="alert">${v.data.error}</p>`;
  return markup`<h1>${v.page.title}</h1><p class="muted">${
    v.page.description ?? ""
  } <span class="mono">(${v.page.owner})</span></p>${resultBox(v)}${data}${actionForms(v, url)}`;
}
