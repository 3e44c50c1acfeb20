/**
 * Unknown keys of a `key=value` file (`settings.conf`, a provider `.conf`): each with its
 * line and the nearest known key, so a typo (`modle=`) is reported where it is instead of
 * being ignored.
 *
 * @module
 */

/** A key the file's reader does not know. */
export interface UnknownKey {
  /** The file. */
  path: string;
  /** 1-based line. */
  line: number;
  /** The key as written. */
  key: string;
  /** The nearest known key (edit distance ≤ 2, or a prefix match), if any. */
  suggestion?: string;
}

/** Levenshtein distance (small strings). */
export function editDistance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0];
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const cur = row[j];
      row[j] = Math.min(row[j] + 1, row[j - 1] + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = cur;
    }
  }
  return row[b.length];
}

/** The known word nearest to `word` (distance ≤ 2, ties: the first), if any. */
export function nearestWord(word: string, known: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestD = 3;
  for (const k of known) {
    const d = editDistance(word.toLowerCase(), k.toLowerCase());
    if (d < bestD) {
      best = k;
      bestD = d;
    }
  }
  return best;
}

/**
 * The unknown keys of a `key=value` text. `prefixes` are key families (`header.`) that are
 * all known. Lines that are not `key=value` are left to the file's own parser.
 */
export function unknownKeys(
  text: string,
  path: string,
  known: readonly string[],
  prefixes: readonly string[] = [],
): UnknownKey[] {
  const out: UnknownKey[] = [];
  text.split(/\r?\n/).forEach((raw, i) => {
    const line = raw.trim();
    if (line === "" || line.startsWith("#")) return;
    const eq = line.indexOf("=");
    if (eq <= 0) return;
    const key = line.slice(0, eq).trim();
    if (known.includes(key) || prefixes.some((p) => key.startsWith(p))) return;
    out.push({ path, line: i + 1, key, suggestion: nearestWord(key, known) });
  });
  return out;
}

/** `path:line: unknown key modle= (did you mean model=?)`. */
export function formatUnknownKey(u: UnknownKey): string {
  return `${u.path}:${u.line}: unknown key ${u.key}= ` +
    (u.suggestion ? `(did you mean ${u.suggestion}=?)` : "(ignored)");
}

/** The keys `settings.conf` knows. */
export const SETTINGS_KEYS: readonly string[] = ["provider", "model"];
