/**
 * Whether a run's requests reached a server: a session that a run created, whose every
 * request failed before reaching one (connection refused, no model, no key), holds only the
 * message that could not be sent — an empty session. It is removed rather than left to
 * clutter `hs session list`; once any server answered (even with an error) it is kept.
 *
 * @module
 */
import { type ModelProvider, ProviderError } from "../base/mod.ts";

/** A provider whose requests are watched, and what was seen. */
export interface ReachWatch {
  /** The provider to use in place of the watched one. */
  provider: ModelProvider;
  /** True when a request was sent and none reached a server. */
  neverReached(): boolean;
}

/** Wraps `send` of a provider to see whether any request reached a server. */
export function watchReach(inner: ModelProvider): ReachWatch {
  let sent = 0;
  let reached = 0;
  const send: ModelProvider["send"] = async (payload, model, options) => {
    sent++;
    try {
      const out = await inner.send(payload, model, options);
      reached++;
      return out;
    } catch (err) {
      if (!(err instanceof ProviderError && !err.reachedServer)) reached++;
      throw err;
    }
  };
  const provider = new Proxy(inner, {
    get(target, prop) {
      if (prop === "send") return send;
      const v = Reflect.get(target, prop, target);
      return typeof v === "function" ? v.bind(target) : v;
    },
  });
  return { provider, neverReached: () => sent > 0 && reached === 0 };
}

/** Removes the directory of a session the run created when its requests reached nothing. */
export async function dropUnreachedSession(
  dir: string,
  created: boolean,
  watch: ReachWatch,
  failed: boolean,
): Promise<boolean> {
  if (!created || !failed || !watch.neverReached()) return false;
  await Deno.remove(dir, { recursive: true }).catch(() => {});
  return true;
}
