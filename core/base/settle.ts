/**
 * Waiting with a bound: whether a promise settled within a time, without leaving a timer
 * behind (the test sanitizers count a pending timer as a leak).
 *
 * @module
 */

/**
 * Waits for `p` at most `ms`; true when it settled (fulfilled or rejected) in time. The
 * promise itself keeps running either way; its rejection is observed, never thrown.
 */
export async function settlesWithin(p: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    return await Promise.race([
      p.then(() => true, () => true),
      new Promise<boolean>((r) => timer = setTimeout(() => r(false), ms)),
    ]);
  } finally {
    clearTimeout(timer);
  }
}
