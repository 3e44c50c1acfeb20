/**
 * Debian's chromium driven by playwright-core: headless, no sandbox (root in
 * CI), no background networking (the machine has no network), and a fresh
 * profile directory that is removed on close.
 *
 * @module
 */
import { chromium } from "playwright-core";
import type { BrowserContext } from "playwright-core";

/** The browser the site's screenshots and browser test use. */
export const CHROMIUM = Deno.env.get("HS_CHROMIUM") ?? "/usr/bin/chromium";

/** Flags for a headless chromium on a machine without network. */
export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/** Why chromium cannot be used here, or `undefined` when it can. */
export function chromiumMissing(): string | undefined {
  try {
    Deno.statSync(CHROMIUM);
    return undefined;
  } catch {
    return `${CHROMIUM} is not installed (apt-get install -y chromium; .ci/run installs it)`;
  }
}

/** A running browser; `close()` ends it and removes its profile. */
export interface Browser {
  context: BrowserContext;
  close(): Promise<void>;
}

/** Starts chromium with a fresh `--user-data-dir`. */
export async function launchChromium(): Promise<Browser> {
  const profile = await Deno.makeTempDir({ prefix: "hs-chromium-" });
  try {
    const context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: CHROMIUM_ARGS,
      viewport: { width: 1280, height: 800 },
    });
    return {
      context,
      close: async () => {
        await context.close();
        await Deno.remove(profile, { recursive: true }).catch(() => {});
      },
    };
  } catch (err) {
    await Deno.remove(profile, { recursive: true }).catch(() => {});
    throw err;
  }
}
