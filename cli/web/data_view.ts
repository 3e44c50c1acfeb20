/**
 * Plugin page data (any JSON) as HTML, chosen by shape: an object is a list of
 * fields, an array of records a table (with the page's actions on each row),
 * an array of plain values a list, a long or multi-line string a `<pre>`.
 * Every key and value is escaped: the data is the plugin's, never markup.
 *
 * @module
 */
import type { Json, PageAction } from "../../core/mod.ts";
import { type Html, html } from "./html.ts";
import { jsonText } from "./transcript.ts";

/** Where a view's action buttons post. */
export interface ActionTarget {
  /** The form action (the page's action URL). */
  url: string;
  actions: PageAction[];
}

/** Rows shown per table (the rest is counted). */
export const MAX_ROWS = 500;
const MAX_DEPTH = 5;

function isRecord(v: Json): v is { [k: string]: Json } {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function isPlain(v: Json): boolean {
  return v === null || typeof v !== "object";
}

function scalar(v: Json): Html {
  if (v === null) return html`<span class="null">null</span>`;
  if (typeof v === "boolean") return html`<span class="bool">${String(v)}</span>`;
  if (typeof v === "number") return html`<span class="num">${String(v)}</span>`;
  const s = String(v);
  return s.length > 200 || s.includes("\n") ? html`<pre class="value">${s}</pre>` : html`${s}`;
}

/** Buttons that perform each action with `args` (one small form per action). */
export function actionButtons(target: ActionTarget, args: Json, label?: string): Html {
  const json = JSON.stringify(args);
  return html`${
    target.actions.map((a) =>
      html`
        <form method="post" action="${target.url}"
          class="inline"><input type="hidden" name="action" value="${a
            .name}"><input type="hidden" name="args" value="${json}"><button type="submit" class="small" ${label
            ? html`aria-label="${a.label}: ${label}"`
            : ""}>${a.label}</button></form>
      `
    )
  }`;
}

function table(rows: { [k: string]: Json }[], target: ActionTarget | undefined, depth: number) {
  const keys: string[] = [];
  for (const r of rows.slice(0, MAX_ROWS)) {
    for (const k of Object.keys(r)) if (!keys.includes(k)) keys.push(k);
  }
  const withActions = target && target.actions.length > 0;
  const label = (r: { [k: string]: Json }) => {
    const first = keys.map((k) => r[k]).find((v) => typeof v === "string");
    return typeof first === "string" ? first : undefined;
  };
  return html`
    <div class="table-wrap">
      <table class="data">
        <thead>
          <tr>${keys.map((k) => html`<th scope="col">${k}</th>`)}${withActions
            ? html`<th scope="col"><span class="visually-hidden">Actions</span></th>`
            : ""}</tr>
        </thead>
        <tbody>${rows.slice(0, MAX_ROWS).map((r) =>
          html`<tr>${
            keys.map((k) => html`<td>${k in r ? view(r[k], undefined, depth + 1) : ""}</td>`)
          }${
            withActions
              ? html`<td class="row-actions">${actionButtons(target!, r, label(r))}</td>`
              : ""
          }</tr>`
        )}</tbody>
      </table>
    </div>${rows.length > MAX_ROWS
      ? html`<p class="cut">… ${rows.length - MAX_ROWS} more rows</p>`
      : ""}
  `;
}

/** JSON as HTML; `target` puts the page's actions on the rows of its tables. */
export function view(data: Json, target?: ActionTarget, depth = 0): Html {
  if (isPlain(data)) return scalar(data);
  if (depth >= MAX_DEPTH) return html`<pre class="json">${jsonText(data)}</pre>`;
  if (Array.isArray(data)) {
    if (data.length === 0) return html`<span class="empty">(none)</span>`;
    if (data.every(isRecord)) return table(data as { [k: string]: Json }[], target, depth);
    return html`<ul class="data">${
      data.slice(0, MAX_ROWS).map((v) => html`<li>${view(v, target, depth + 1)}</li>`)
    }</ul>${
      data.length > MAX_ROWS ? html`<p class="cut">… ${data.length - MAX_ROWS} more</p>` : ""
    }`;
  }
  const entries = Object.entries(data as { [k: string]: Json });
  if (entries.length === 0) return html`<span class="empty">(empty)</span>`;
  return html`<dl class="data">${
    entries.map(([k, v]) =>
      html`
        <div class="field">
          <dt>${k}</dt>
          <dd>${view(v, target, depth + 1)}</dd>
        </div>
      `
    )
  }</dl>`;
}
