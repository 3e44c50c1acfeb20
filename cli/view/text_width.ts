/**
 * Display width on a terminal: columns a string takes (wide characters count
 * two, ANSI colour sequences none), and a cut to a number of columns with `…`.
 *
 * @module
 */
import stringWidth from "string-width";

// deno-lint-ignore no-control-regex
const SGR = /\x1b\[[0-9;]*m/g;

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
