/**
 * Plugin page data (any JSON) as HTML, chosen by shape: an object is a list of
 * fields, an array of records a table (with the page's actions on each row,
 * the row being the action's arguments), an array of plain values a list, a
 * long or multi-line string a `<pre>`. Every key and value is escaped: the
 * data is the plugin's, never markup.
 *
 * @module
 */
import type { Json, PageAction } from "../../core/mod.ts";
import { type Html, markup } from "./html.ts";
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

type Row = { [k: string]: Json };

function isRecord(v: Json): v is Row {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function scalar(v: Json): Html {
  if (v === null) return markup`<span class="null">null</span>`;
  if (typeof v === "boolean") return markup`<span class="bool">${String(v)}</span>`;
  if (typeof v === "number") return markup`<span class="num">${String(v)}</span>`;
  const s = String(v);
  return s.length > 200 || s.includes("\n") ? markup`<pre class="value">${s}</pre>` : markup`${s}`;
}

/** Buttons that perform each action with `args` (one small form per action). */
export function actionButtons(target: ActionTarget, args: Json, about?: string): Html {
  const json = JSON.stringify(args);
  return markup`${
    target.actions.map((a) => {
      const label = about ? markup` aria-label="${a.label}: ${about}"` : "";
      return markup`<form method="post" action="${target.url}" class="inline"><input type="hidden" name="action" value="${a.name}"><input type="hidden" name="args" value="${json}"><button type="submit" class="small"${label}>${a.label}</button></form>`;
    })
  }`;
}

function table(rows: Row[], target: ActionTarget | undefined, depth: number): Html {
  const shown = rows.slice(0, MAX_ROWS);
  const keys: string[] = [];
  for (const r of shown) for (const k of Object.keys(r)) if (!keys.includes(k)) keys.push(k);
  const acts = target && target.actions.length > 0 ? target : undefined;
  // what a row is called for a screen reader (its first text value)
  const about = (r: Row) => {
    const first = keys.map((k) => r[k]).find((v) => typeof v === "string");
    return typeof first === "string" ? first : undefined;
  };
  const head = markup`<tr>${keys.map((k) => markup`<th scope="col">${k}</th>`)}${
    acts ? markup`<th scope="col"><span class="visually-hidden">Actions</span></th>` : ""
  }</tr>`;
  const body = shown.map((r) => {
    const cells = keys.map((k) =>
      markup`<td>${k in r ? view(r[k], undefined, depth + 1) : ""}</td>`
    );
    const actions = acts
      ? markup`<td class="row-actions">${actionButtons(acts, r, about(r))}</td>`
      : "";
    return markup`<tr>${cells}${actions}</tr>`;
  });
  const rest = rows.length > MAX_ROWS
    ? markup`<p class="cut">… ${rows.length - MAX_ROWS} more rows</p>`
    : "";
  return markup`<div class="table-wrap"><table class="data"><thead>${head}</thead><tbody>${body}</tbody></table></div>${rest}`;
}

/** JSON as HTML; `target` puts the page's actions on the rows of its tables. */
export function view(data: Json, target?: ActionTarget, depth = 0): Html {
  if (data === null || typeof data !== "object") return scalar(data);
  if (depth >= MAX_DEPTH) return markup`<pre class="json">${jsonText(data)}</pre>`;
  if (Array.isArray(data)) {
    if (data.length === 0) return markup`<span class="empty">(none)</span>`;
    if (data.every(isRecord)) return table(data as Row[], target, depth);
    const items = data.slice(0, MAX_ROWS).map((v) =>
      markup`<li>${view(v, target, depth + 1)}</li>`
    );
    const rest = data.length > MAX_ROWS
      ? markup`<p class="cut">… ${data.length - MAX_ROWS} more</p>`
      : "";
    return markup`<ul class="data">${items}</ul>${rest}`;
  }
  const entries = Object.entries(data as Row);
  if (entries.length === 0) return markup`<span class="empty">(empty)</span>`;
  return markup`<dl class="data">${
    entries.map(([k, v]) =>
      markup`<div class="field"><dt>${k}</dt><dd>${view(v, target, depth + 1)}</dd></div>`
    )
  }</dl>`;
}
