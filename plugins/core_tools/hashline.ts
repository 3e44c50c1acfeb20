/**
 * Line anchors ("hashline"): `read_file` prints each line as `N#HH:text`, and
 * `edit_file` only accepts anchors whose hash still matches the file.
 *
 * Bit-exact with the reference `hashline.awk` as run by a byte-oriented awk
 * (mawk, the default awk of Debian/Ubuntu):
 *
 * - drop every `\r`, then trailing spaces and tabs;
 * - djb2 over the bytes: `h = 5381; h = (h * 33 + ord(byte)) mod 2^32`, where the
 *   reference's `ord` table only covers ASCII, so bytes >= 0x80 (and NUL) count as 0;
 * - a line without an ASCII letter or digit mixes in its line number:
 *   `h = (h + N * 2654435761) mod 2^32` (double arithmetic, like awk);
 * - `b = h mod 256`; the anchor is two characters of `ZPMQVRWSNKTXJBYH`,
 *   high nibble then low nibble of `b`.
 *
 * @module
 */

/** The 16 characters anchors are written with (index = nibble value). */
export const HASH_ALPHABET = "ZPMQVRWSNKTXJBYH";

const MOD = 4294967296; // 2^32
const LINE_MIX = 2654435761;
const encoder = new TextEncoder();
const decoder = new TextDecoder();

function isAsciiAlnum(b: number): boolean {
  return (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5a) || (b >= 0x61 && b <= 0x7a);
}

/**
 * The two-character hash of one line (without its `\n`).
 *
 * @param line the line's text, or its raw bytes (use bytes for files that are not valid UTF-8)
 * @param lineNo the 1-based line number (only used for lines without letters or digits)
 */
export function hashLine(line: string | Uint8Array, lineNo: number): string {
  const bytes = typeof line === "string" ? encoder.encode(line) : line;
  // Length after dropping \r and trailing blanks: find the last byte that counts.
  let last = -1;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i];
    if (b !== 0x0d && b !== 0x20 && b !== 0x09) last = i;
  }
  let h = 5381;
  let alnum = false;
  for (let i = 0; i <= last; i++) {
    const b = bytes[i];
    if (b === 0x0d) continue;
    if (isAsciiAlnum(b)) alnum = true;
    h = (h * 33 + (b < 0x80 ? b : 0)) % MOD;
  }
  if (!alnum) h = (h + lineNo * LINE_MIX) % MOD;
  const low = h % 256;
  return HASH_ALPHABET[low >> 4] + HASH_ALPHABET[low & 15];
}

/** An anchor `N#HH` for a line. */
export function lineAnchor(line: string | Uint8Array, lineNo: number): string {
  return `${lineNo}#${hashLine(line, lineNo)}`;
}

/** One formatted line, `N#HH:text` (the text is printed as-is, `\r` included). */
export function formatHashLine(line: string | Uint8Array, lineNo: number): string {
  const text = typeof line === "string" ? line : decoder.decode(line);
  return `${lineAnchor(line, lineNo)}:${text}`;
}

/**
 * Formats consecutive lines, the first being line `startLine`; one output line per input
 * line, joined with `\n` (no trailing newline).
 */
export function formatHashLines(lines: readonly (string | Uint8Array)[], startLine = 1): string {
  return lines.map((line, i) => formatHashLine(line, startLine + i)).join("\n");
}

/**
 * Splits file bytes into lines the way awk reads records: on `\n`, where a final `\n`
 * does not start another (empty) line. An empty file has no lines.
 */
export function splitLineBytes(bytes: Uint8Array): Uint8Array[] {
  const lines: Uint8Array[] = [];
  let start = 0;
  for (let i = 0; i < bytes.length; i++) {
    if (bytes[i] === 0x0a) {
      lines.push(bytes.subarray(start, i));
      start = i + 1;
    }
  }
  if (start < bytes.length) lines.push(bytes.subarray(start));
  return lines;
}

/** Number of `\n` bytes, i.e. what `wc -l` reports (the reference's notion of file length). */
export function countNewlines(bytes: Uint8Array): number {
  let n = 0;
  for (const b of bytes) if (b === 0x0a) n++;
  return n;
}

/** A parsed anchor. */
export interface Anchor {
  /** 1-based line number. */
  line: number;
  /** The two-character hash. */
  hash: string;
}

const ANCHOR_RE = /^\s*([0-9]+)#([ZPMQVRWSNKTXJBYH]{2})(?::.*)?\s*$/s;

/**
 * Parses `"<N>#<HH>"` (a copied `N#HH:text` line is accepted too). Returns undefined
 * when the string is not an anchor.
 */
export function parseAnchor(anchor: string): Anchor | undefined {
  const m = ANCHOR_RE.exec(anchor);
  if (!m) return undefined;
  return { line: Number(m[1]), hash: m[2] };
}

const PREFIX_RE = /^[0-9]+#[A-Z]{2}:/;

/**
 * Removes a leading `N#HH:` that a model copied from `read_file` output into new
 * content (the reference strips `^[0-9]+#[A-Z]{2}:` from every content line).
 */
export function stripAnchorPrefix(line: string): string {
  return line.replace(PREFIX_RE, "");
}
