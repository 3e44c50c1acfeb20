/**
 * Small statistics the benchmark reports share: medians, upper quantiles, repeated timing.
 *
 * @module
 */

/** The value at quantile `q` (0–1) of `xs`, taken from the sorted samples (no interpolation). */
export function quantile(xs: number[], q: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(s.length * q))];
}

/** The median of `xs` (the upper one of an even count). */
export function median(xs: number[]): number {
  return quantile(xs, 0.5);
}

/** Times `fn` `n` times in a row; each call's wall time in ms. */
export async function timeMany(
  n: number,
  fn: () => Promise<unknown> | unknown,
): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    await fn();
    out.push(performance.now() - t0);
  }
  return out;
}
