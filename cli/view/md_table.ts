/**
 * A Markdown table laid out for a terminal: cells split on unescaped `|`,
 * each column as wide as its widest cell in display columns (wide characters
 * count two, colour none), aligned as the delimiter row says (`:--` left,
 * `:-:` centre, `--:` right), the header bold, rules drawn with box lines.
 *
 * @module
 */
import { displayWidth, padToWidth } from "./text_width.ts";

type Align = "left" | "right" | "center";

/** The cells of a table row (`| a | b |`, outer pipes optional, `\|` a literal pipe). */
export function tableCells(row: string): string[] {
  let r = row.trim();
  if (r.startsWith("|")) r = r.slice(1);
  if (r.endsWith("|") && !r.endsWith("\\|")) r = r.slice(0, -1);
  const cells: string[] = [];
  let cur = "";
  for (let i = 0; i < r.length; i++) {
    if (r[i] === "\\" && r[i + 1] === "|") {
      cur += "|";
      i++;
    } else if (r[i] === "|") {
      cells.push(cur.trim());
      cur = "";
    } else cur += r[i];
  }
  cells.push(cur.trim());
  return cells;
}

/** True for a delimiter row (`|---|:-:|`). */
export function isDelimiterRow(row: string): boolean {
  const cells = tableCells(row);
  return cells.length > 0 && cells.every((c) => /^:?-+:?$/.test(c));
}

function alignOf(cell: string): Align {
  const l = cell.startsWith(":");
  const r = cell.endsWith(":");
  return l && r ? "center" : r ? "right" : "left";
}

/**
 * The lines of a table. `inline` renders a cell's Markdown (its colour does not count
 * toward the width); `dim` and `bold` style the rules and the header.
 */
export function layoutTable(
  rows: readonly string[],
  style: { inline(s: string): string; dim(s: string): string; bold(s: string): string },
): string[] {
  const delim = rows.findIndex(isDelimiterRow);
  const aligns = delim >= 0 ? tableCells(rows[delim]).map(alignOf) : [];
  const body = rows.filter((_, i) => i !== delim).map((r) => tableCells(r).map(style.inline));
  const cols = Math.max(...body.map((r) => r.length), aligns.length);
  const widths = Array.from(
    { length: cols },
    (_, c) => Math.max(1, ...body.map((r) => displayWidth(r[c] ?? ""))),
  );
  const bar = style.dim("│");
  const line = (cells: string[], header: boolean) =>
    `${bar} ${
      widths.map((w, c) => {
        const cell = padToWidth(cells[c] ?? "", w, aligns[c] ?? "left");
        return header ? style.bold(cell) : cell;
      }).join(` ${bar} `)
    } ${bar}`;
  const rule = (l: string, m: string, r: string) =>
    style.dim(`${l}${widths.map((w) => "─".repeat(w + 2)).join(m)}${r}`);
  const out = [rule("┌", "┬", "┐")];
  body.forEach((cells, i) => {
    const header = delim === 1 && i === 0;
    out.push(line(cells, header));
    if (header) out.push(rule("├", "┼", "┤"));
  });
  out.push(rule("└", "┴", "┘"));
  return out;
}
