/**
 * Display width on a terminal: columns a string takes (wide characters count
 * two, ANSI colour sequences none), and a cut to a number of columns with `…`.
 *
 * Printable ASCII is measured by its length; other text by string-width, which loads only
 * where text is laid out for a terminal ({@link loadTextWidth}, with the Markdown renderer) —
 * before that, by a rule of thumb (marks none, East Asian wide and emoji two, others one).
 *
 * @module
 */

// deno-lint-ignore no-control-regex
const SGR = /\x1b\[[0-9;]*m/g;
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;
const MARK = /^[\p{Mn}\p{Me}\p{Cf}]$/u;
const WIDE =
  /^[\u1100-\u115f\u2e80-\u303e\u3041-\u33ff\u3400-\u4dbf\u4e00-\u9fff\ua000-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6\p{Extended_Pictographic}]$/u;

let library: ((s: string) => number) | undefined;

/** Loads string-width (the exact widths of wide characters, emoji and marks). */
export async function loadTextWidth(): Promise<void> {
  library ??= (await import("string-width")).default;
}

function stringWidth(s: string): number {
  if (PRINTABLE_ASCII.test(s)) return s.length;
  if (library) return library(s);
  let w = 0;
  for (const ch of s) w += MARK.test(ch) || ch < " " ? 0 : WIDE.test(ch) ? 2 : 1;
  return w;
}

/** Columns `s` takes on a terminal (colour sequences take none). */
export function displayWidth(s: string): number {
  return stringWidth(s.replace(SGR, ""));
}

/** `s` (plain text) cut to at most `max` columns, ending in `…` when it was cut. */
export function cutToWidth(s: string, max: number): string {
  if (displayWidth(s) <= max) return s;
  if (max <= 1) return max === 1 ? "…" : "";
  let out = "";
  let w = 0;
  for (const ch of s) {
    const cw = stringWidth(ch);
    if (w + cw > max - 1) break;
    out += ch;
    w += cw;
  }
  return out + "…";
}

/** `s` padded with spaces to `width` columns (left, right or centre). */
export function padToWidth(
  s: string,
  width: number,
  align: "left" | "right" | "center" = "left",
): string {
  const gap = Math.max(0, width - displayWidth(s));
  if (align === "right") return " ".repeat(gap) + s;
  if (align === "center") {
    const l = Math.floor(gap / 2);
    return " ".repeat(l) + s + " ".repeat(gap - l);
  }
  return s + " ".repeat(gap);
}
