/**
 * Unknown keys of the configuration a run uses (`settings.conf`, the provider's `.conf`),
 * as one-line warnings: a typo such as `modle=` is named where it is, with the nearest key.
 *
 * @module
 */
import { basename } from "../../core/early/mod.ts";
import type { FrontEnd } from "../../core/mod.ts";
import {
  formatUnknownKey,
  parseKeyValues,
  readTextOrUndefined,
  SETTINGS_KEYS,
  unknownKeys,
} from "../../core/base/mod.ts";

/** Warnings of the most local `settings.conf`. */
export function settingsWarnings(h: FrontEnd): string[] {
  const file = h.catalog.snapshot().settingsFile;
  if (!file) return [];
  return unknownKeys(readTextOrUndefined(file) ?? "", file, SETTINGS_KEYS).map(formatUnknownKey);
}

/** Warnings of the `.conf` files seen so far (all, or only `<provider>.conf`). */
export function confWarnings(h: FrontEnd, provider?: string): string[] {
  return h.catalog.confWarnings()
    .filter((w) => provider === undefined || basename(w.path) === `${provider}.conf`)
    .map((w) => w.reason);
}

/** The provider a run names before resolution (flag, environment, settings), if any. */
export function namedProvider(h: FrontEnd, flag?: string): string | undefined {
  if (flag) return flag;
  if (h.env.HARNESS_PROVIDER) return h.env.HARNESS_PROVIDER;
  const file = h.catalog.snapshot().settingsFile;
  return file ? parseKeyValues(readTextOrUndefined(file) ?? "").provider || undefined : undefined;
}
