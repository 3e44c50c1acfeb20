/**
 * HTML that escapes by construction: the {@link markup} tag escapes every
 * interpolated value unless it is already {@link Html} (built by this module),
 * so session text, tool output and plugin data can only ever be text. There is
 * no way to mark an arbitrary string as safe except {@link trusted}, which is
 * for constants of this folder.
 *
 * @module
 */

const ESCAPES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

/** Escapes text for an HTML text node or a quoted attribute value. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]);
}

/** Only this module makes {@link Html}. */
const MINT = Symbol("html");

/** A fragment of markup that is already safe (made by {@link markup} or {@link trusted}). */
export class Html {
  readonly value: string;
  /** Use {@link markup} or {@link trusted}: a fragment cannot be made from a string elsewhere. */
  constructor(mint: symbol, value: string) {
    if (mint !== MINT) throw new TypeError("Html is made by markup`…` or trusted()");
    this.value = value;
  }
  /** The markup. */
  toString(): string {
    return this.value;
  }
}

/** A value the {@link markup} tag accepts: text (escaped), markup, or lists of them. */
export type HtmlValue = Html | string | number | boolean | null | undefined | HtmlValue[];

function render(v: HtmlValue): string {
  if (v === null || v === undefined || v === false) return "";
  if (v instanceof Html) return v.value;
  if (Array.isArray(v)) return v.map(render).join("");
  return escapeHtml(String(v));
}

/**
 * Builds markup; every `${value}` is escaped unless it is {@link Html}. Arrays are
 * joined; `null`, `undefined` and `false` render nothing. (Not named `html`: `deno fmt`
 * reformats templates of that tag, and whitespace in markup is not always insignificant.)
 */
export function markup(strings: TemplateStringsArray, ...values: HtmlValue[]): Html {
  let out = strings[0];
  for (let i = 0; i < values.length; i++) out += render(values[i]) + strings[i + 1];
  return new Html(MINT, out);
}

/** Markup from a constant of this folder (never from data). */
export function trusted(text: string): Html {
  return new Html(MINT, text);
}

/** Escapes a value like the tag does (for a fragment sent on its own). */
export function toHtml(v: HtmlValue): Html {
  return new Html(MINT, render(v));
}
