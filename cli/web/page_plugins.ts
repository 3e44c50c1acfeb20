/**
 * `/plugins` — runtime plugins (state, contributions, the host's reason for a
 * failure), behavior packs and their bots (state, reasons, guards waiting for
 * consent, with the button that approves them) and the plugins' pages — and
 * a plugin page itself, rendered by the host from its descriptor and its
 * `read` data, with its actions as buttons.
 *
 * @module
 */
import type { Json, PackState, PageInfo, PluginStatus } from "../../core/mod.ts";
import { type Html, html } from "./html.ts";
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

function stateBadge(state: string): Html {
  const cls = state === "active" || state === "attached" || state === "ready" ||
      state === "no behavior"
    ? "good"
    : state === "failed" || state === "not attached"
    ? "bad"
    : state === "awaiting approval"
    ? "wait"
    : "";
  return html`<span class="badge ${cls}">${state}</span>`;
}

/** The form that approves a bot's guards. */
export function approveForm(c: ConsentItem): Html {
  return html`
    <form method="post" action="/packs/approve"
      class="inline"><input type="hidden" name="pack" value="${c
        .pack}"><input type="hidden" name="bot" value="${c
        .bot}"><button type="submit" class="primary small" aria-label="Approve the guards of ${c
        .pack}/${c.bot}">Approve</button></form>
  `;
}

/** The banner of bots waiting for consent (on every page while there are some). */
export function consentBanner(items: ConsentItem[]): Html | undefined {
  if (items.length === 0) return undefined;
  return html`
    <aside class="banner" role="region"
      aria-label="Consent"><strong>Behavior packs wait for your consent.</strong> ${items.map((c) =>
        html`
          <span
            class="mono">${c.pack}/${c.bot}</span> declares ${c.guards
              .length} guard(s) that run on every matching call.
        `
      )}<a href="/plugins#packs">Review them</a></aside>
  `;
}

/** The `/plugins` page's main content. */
export function pluginsBody(
  plugins: PluginRow[],
  packs: PackState[],
  pages: PageInfo[],
  notice?: string,
): Html {
  const rows = plugins.map((p) => {
    const s = p.status;
    const tags = [s.builtin ? "built-in" : "", s.required ? "" : "optional"].filter(Boolean);
    return html`
      <tr>
        <td class="mono"><strong>${s.id}</strong></td>
        <td class="mono">${s.version}</td>
        <td>${stateBadge(s.state)} ${tags.length
          ? html`<span class="muted">${tags.join(", ")}</span>`
          : ""}${s.reason ? html`<div class="muted">${s.reason}</div>` : ""}</td>
        <td>${Object.entries(p.contributions).map(([kind, keys]) =>
          html`<div><span class="muted">${kind}s:</span> <span class="mono">${
            keys.join(", ")
          }</span></div>`
        )}</td>
      </tr>
    `;
  });
  const packList = packs.length
    ? packs.map((p) => {
      const m = p.manifest;
      return html`
        <div
          class="card"><h3>${m?.name ?? p.dir} <span class="muted">${m?.version ??
            ""}</span></h3><p class="muted mono">${p.dir}</p>${p.error
            ? html`<p class="notice error">Load error: ${p.error}</p>`
            : ""}${m?.description ? html`<p>${m.description}</p>` : ""}${p.bots.length
            ? html`
              <table class="data">
                <thead>
                  <tr>
                    <th scope="col">Bot</th>
                    <th scope="col">Attach</th>
                    <th scope="col">State</th>
                  </tr>
                </thead>
                <tbody>${p.bots.map((b) =>
                  html`
                    <tr>
                      <td class="mono"><strong>${b.spec.name}</strong>${b.spec.tools
                        ? html`<div class="muted">tools: ${b.spec.tools.join(", ")}</div>`
                        : ""}</td>
                      <td>${b.spec.attach === "foreground"
                        ? "foreground"
                        : `named, ${b.spec.scope ?? "session"} scope`}</td>
                      <td>${stateBadge(b.status)}${b.reason
                        ? html`<div class="muted">${b.reason}</div>`
                        : ""}${b.pending.length
                        ? html`<ul>${
                          b.pending.map((g) =>
                            html`<li><span class="mono">${g.guard}</span> (${g.point}) <span class="muted mono">${g.loc}</span></li>`
                          )
                        }</ul>${
                          approveForm({
                            pack: b.pack.name,
                            bot: b.spec.name,
                            guards: b.pending,
                          })
                        }`
                        : ""}</td>
                    </tr>
                  `
                )}</tbody>
              </table>
            `
            : ""}${(m?.notices ?? []).map((n) => html`<p class="muted">notice: ${n}</p>`)}</div>
      `;
    })
    : html`
      <p
        class="muted">No behavior packs (put them in <code>$HARNESS_HOME/packs/</code> or <code>.harness/packs/</code>).</p>
    `;
  const pageList = pages.length
    ? html`<ul>${
      pages.map((p) =>
        html`<li><a href="/p/${encodeURIComponent(p.id)}">${p.title}</a> <span class="muted">— ${
          p.description ?? ""
        } (${p.owner})</span></li>`
      )
    }</ul>`
    : html`<p class="muted">No plugin pages.</p>`;
  return html`
    <h1>Plugins</h1>${notice
      ? html`<p class="notice" role="status">${notice}</p>`
      : ""}<h2 id="runtime">Runtime plugins</h2><div class="table-wrap">
      <table class="data">
        <thead>
          <tr>
            <th scope="col">Plugin</th>
            <th scope="col">Version</th>
            <th scope="col">State</th>
            <th scope="col">Contributions</th>
          </tr>
        </thead>
        <tbody>${rows}</tbody>
      </table>
    </div><h2 id="packs">Behavior packs and bots</h2>${packList}<h2 id="pages">Pages</h2>${pageList}
  `;
}

/** What a plugin page shows. */
export interface PluginPageView {
  page: PageInfo;
  /** The data `read` returned, or why it could not be read. */
  data: { ok: true; value: Json } | { ok: false; error: string };
  /** The outcome of an action just performed. */
  result?: { action: string; ok: true; value: Json } | { action: string; ok: false; error: string };
}

/** A plugin page's main content. */
export function pluginPageBody(v: PluginPageView): Html {
  const url = `/p/${encodeURIComponent(v.page.id)}/action`;
  const target: ActionTarget = { url, actions: v.page.actions };
  const result = v.result
    ? v.result.ok
      ? html`
        <section class="card result-box" role="status"
          aria-label="Result"><h3>${v.page.actions.find((a) => a.name === v.result!.action)
            ?.label ?? v.result.action}: done</h3>${view(v.result.value)}</section>
      `
      : html`<p class="notice error result-box" role="alert">${v.result.error}</p>`
    : "";
  const actions = v.page.actions.length
    ? html`
      <section class="card"
        aria-labelledby="page-actions"><h3 id="page-actions">Actions</h3>${v.page.actions.map((a) =>
          html`
            <form method="post" action="${url}"
              class="page-action"><input type="hidden" name="action" value="${a
                .name}"><details><summary>Arguments for ${a.label}</summary><label for="args-${a
                .name}">Arguments (JSON)</label><textarea id="args-${a
                .name}" name="args" rows="2" class="mono">{}</textarea></details><button type="submit">${a
                .label}</button></form>
          `
        )}</section>
    `
    : "";
  return html`
    <h1>${v.page.title}</h1><p
      class="muted">${v.page.description ?? ""} <span class="mono">(${v.page
        .owner})</span></p>${result}${v.data.ok
        ? html`<section class="page-data" aria-label="${v.page.title}">${
          view(v.data.value, target)
        }</section>`
        : html`<p class="notice error" role="alert">${v.data.error}</p>`}${actions}
  `;
}
