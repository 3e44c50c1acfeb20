/**
 * `deno task site:screens`: regenerates the site's screenshots in
 * `site/screenshots/`.
 *
 * - `repl.png`: a REPL turn against the offline scripted model, captured from a
 *   pseudo-terminal, replayed in a headless terminal emulator to HTML, and
 *   photographed with chromium.
 * - `web-*.png`: the pages of `hs web`, saved by its browser test (see
 *   {@link captureWebPages}).
 *
 * @module
 */
import { join } from "node:path";
import { REPO, SCREENSHOTS } from "./lib/paths.ts";
import { hsArgv, hsEnv, sandboxEnv } from "./lib/hs.ts";
import { capturePty } from "./lib/pty.ts";
import { ansiToHtml, THEME } from "./lib/terminal.ts";
import { chromiumMissing, launchChromium } from "./lib/browser.ts";
import type { Browser } from "./lib/browser.ts";

const COLS = 92;
const ROWS = 22;

/** The scripted model of the REPL screenshot: one tool call, then the answer. */
export const REPL_SCRIPT = [
  {
    text: "I'll count them with wc.",
    toolCalls: [{ id: "toolu_shot_1", name: "bash", input: { command: "wc -w notes.txt" } }],
    chunkSize: 6,
    delayMs: 5,
  },
  {
    text: "notes.txt has 31 words, on 2 lines. Anything else you want to know about it?",
    chunkSize: 6,
    delayMs: 5,
  },
];

/** A scripted loopback model server run from the repository (`plugins/scripted/cli.ts`). */
async function startModel(script: unknown, dir: string) {
  const file = join(dir, "script.json");
  await Deno.writeTextFile(file, JSON.stringify(script));
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      "--quiet",
      "--config",
      join(REPO, "deno.json"),
      join(REPO, "plugins", "scripted", "cli.ts"),
      file,
    ],
    stdin: "piped",
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let first = "";
  while (!first.includes("\n")) {
    const { value, done } = await reader.read();
    if (done) throw new Error("scripted server exited before printing its URL");
    first += value;
  }
  return {
    url: first.trim(),
    close: async () => {
      await child.stdin.close();
      await reader.cancel();
      await child.status;
    },
  };
}

/** Captures the REPL session; returns the terminal's bytes. */
export async function captureRepl(): Promise<Uint8Array> {
  const root = await Deno.makeTempDir({ prefix: "hs-screens-" });
  const model = await startModel(REPL_SCRIPT, root);
  try {
    const home = join(root, "home");
    const ws = join(root, "project");
    await Deno.mkdir(join(home, ".harness", "providers"), { recursive: true });
    await Deno.mkdir(ws, { recursive: true });
    await Deno.copyFile(join(REPO, "demo", "workspace", "notes.txt"), join(ws, "notes.txt"));
    await Deno.writeTextFile(
      join(home, ".harness", "providers", "scripted.conf"),
      `protocol=anthropic\nurl=${model.url}/v1/messages\nmodel=scripted-demo\n`,
    );
    const env = hsEnv(home, {
      TERM: "xterm-256color",
      HARNESS_PROVIDER: "scripted",
      HARNESS_NO_TRUST_PROMPT: "1",
      ...sandboxEnv(),
    });
    delete env.NO_COLOR;
    const out = await capturePty([...hsArgv(), "repl"], [
      ["›", "How many words are in notes.txt?\r"],
      ["31 words", ""],
      ["›", "/quit\r"],
    ], { cwd: ws, env, cols: COLS, rows: ROWS });
    if (out.code !== 0) {
      throw new Error(
        `hs repl exited ${out.code}: ${out.stderr}\n${new TextDecoder().decode(out.bytes)}`,
      );
    }
    return out.bytes;
  } finally {
    await model.close();
    await Deno.remove(root, { recursive: true });
  }
}

/** A page showing a terminal screen (HTML from {@link ansiToHtml}) in a window frame. */
export function terminalPage(screen: string, title: string): string {
  return `<!doctype html><meta charset="utf-8"><style>
  body { margin: 0; padding: 24px; background: transparent; }
  .window { display: inline-block; border-radius: 10px; overflow: hidden;
    box-shadow: 0 8px 30px rgba(0,0,0,.35); background: ${THEME.background}; }
  .bar { height: 30px; display: flex; align-items: center; padding: 0 12px; gap: 8px;
    background: #2a2d35; color: #a0a6b2; font: 13px "DejaVu Sans", sans-serif; }
  .dot { width: 12px; height: 12px; border-radius: 50%; }
  .title { flex: 1; text-align: center; margin-right: 52px; }
  pre { margin: 0; padding: 14px 18px 18px; }
  pre > div { font-family: "DejaVu Sans Mono", monospace !important; font-size: 14px !important;
    line-height: 1.45; }
</style><div class="window"><div class="bar"><span class="dot" style="background:#ff5f57"></span>
<span class="dot" style="background:#febc2e"></span><span class="dot" style="background:#28c840">
</span><span class="title">${title}</span></div>${screen}</div>`;
}

/** Photographs `html` (its `.window` element) to `file`. */
async function shoot(browser: Browser, html: string, file: string): Promise<void> {
  const page = await browser.context.newPage();
  try {
    await page.setContent(html);
    await page.locator(".window").screenshot({ path: file, omitBackground: true });
  } finally {
    await page.close();
  }
}

/**
 * The `hs web` screenshots: its browser test (tests/e2e/web_browser_test.ts) walks
 * every page against a scripted model and, with `HS_WEB_SHOTS` set, saves them as
 * `web-<page>.png` in `site/screenshots/` (docs/web.md shows them). Returns the files.
 */
export async function captureWebPages(_browser: Browser): Promise<string[]> {
  const test = new Deno.Command(Deno.execPath(), {
    args: [
      "test",
      "-A",
      "--config",
      join(REPO, "deno.json"),
      join(REPO, "tests", "e2e", "web_browser_test.ts"),
    ],
    cwd: REPO,
    env: { HS_WEB_SHOTS: SCREENSHOTS },
    stdout: "inherit",
    stderr: "inherit",
  });
  const { success } = await test.output();
  if (!success) throw new Error("tests/e2e/web_browser_test.ts failed: no web screenshots");
  const out: string[] = [];
  for await (const e of Deno.readDir(SCREENSHOTS)) {
    if (/^web-.*\.png$/.test(e.name)) out.push(join(SCREENSHOTS, e.name));
  }
  return out.sort();
}

async function main(): Promise<number> {
  const missing = chromiumMissing();
  if (missing) {
    console.error(`site:screens needs chromium: ${missing}`);
    return 1;
  }
  await Deno.mkdir(SCREENSHOTS, { recursive: true });
  const capture = await captureRepl();
  const html = terminalPage(await ansiToHtml(capture, COLS, ROWS), "hs repl");
  const browser = await launchChromium();
  try {
    const file = join(SCREENSHOTS, "repl.png");
    await shoot(browser, html, file);
    console.log(`wrote ${file}`);
    for (const f of await captureWebPages(browser)) console.log(`wrote ${f}`);
  } finally {
    await browser.close();
  }
  return 0;
}

if (import.meta.main) Deno.exit(await main());
