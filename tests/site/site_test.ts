/**
 * The built documentation site: `site/build.ts` into a temporary folder, then
 * the link checker and the CLI reference check over it, then a real browser
 * (playwright-core + Debian's chromium): the home page, a search for "effect
 * floor", the result followed, and screenshots of the home page and the guide
 * page (site/screenshots/browser-test/). The browser part is skipped, with the
 * reason, only when chromium is not installed.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { REPO, SCREENSHOTS, SITE } from "../../site/lib/paths.ts";
import { checkLinks } from "../../site/lib/links.ts";
import { compareCliPage } from "../../site/lib/cli_page.ts";
import { collectHelp } from "../../site/lib/cli_reference.ts";
import { serveStatic } from "../../site/lib/serve.ts";
import { chromiumMissing, launchChromium } from "../../site/lib/browser.ts";

const noBrowser = chromiumMissing();
if (noBrowser) console.warn(`site_test: browser steps skipped: ${noBrowser}`);

Deno.test("the documentation site builds, its links resolve, and a browser can search it", async (t) => {
  const tmp = await Deno.makeTempDir({ prefix: "hs-site-build-" });
  const dist = join(tmp, "dist");
  // The sources must sit inside site/, where Vite finds site/node_modules.
  const gen = join(SITE, `.gen-test-${crypto.randomUUID().slice(0, 8)}`);
  try {
    await t.step("site/build.ts builds the site", async () => {
      const out = await new Deno.Command(Deno.execPath(), {
        args: [
          "run",
          "-A",
          "--config",
          join(REPO, "site", "deno.json"),
          join(REPO, "site", "build.ts"),
          "--out",
          dist,
          "--gen",
          gen,
        ],
        env: { NO_COLOR: "1", SITE_BASE: "/" },
        stdin: "null",
        stdout: "piped",
        stderr: "piped",
      }).output();
      const dec = new TextDecoder();
      assert.equal(out.code, 0, dec.decode(out.stdout) + dec.decode(out.stderr));
      assert.match(dec.decode(out.stdout), /site built in/);
      for (
        const page of ["index.html", "guide/security.html", "reference/cli.html", "api/index.html"]
      ) {
        assert.ok((await Deno.stat(join(dist, page))).isFile, page);
      }
    });

    await t.step("no broken internal link or anchor", async () => {
      const r = await checkLinks(dist);
      assert.deepEqual(r.broken, []);
      assert.ok(r.pages > 10 && r.links > 100, `${r.pages} pages, ${r.links} links`);
    });

    await t.step("the CLI reference page says what hs --help says", async () => {
      const html = await Deno.readTextFile(join(dist, "reference", "cli.html"));
      assert.deepEqual(compareCliPage(html, await collectHelp()), []);
    });

    await t.step("the guide comes from docs/ and the README", async () => {
      const security = await Deno.readTextFile(join(dist, "guide", "security.html"));
      const title =
        /^# (.+)$/m.exec(await Deno.readTextFile(join(REPO, "docs", "security.md")))![1];
      assert.ok(security.includes(title.replace(/:.*/, "")), title);
      const html = await Deno.readTextFile(join(dist, "guide", "getting-started.html"));
      const start = html.replace(/<[^>]+>/g, "");
      assert.match(start, /npx -y deno@2\.9\.6 task demo/);
      assert.match(start, /npx -y deno@2\.9\.6 task test/);
    });

    await t.step({
      name: "a browser searches for 'effect floor', follows the result, and takes screenshots",
      ignore: noBrowser !== undefined,
      fn: async () => {
        const shots = join(SCREENSHOTS, "browser-test");
        await Deno.mkdir(shots, { recursive: true });
        const server = serveStatic(dist);
        const browser = await launchChromium();
        try {
          const page = await browser.context.newPage();
          await page.goto(server.url);
          await page.getByRole("heading", { name: "Harness", level: 1 }).waitFor();
          await page.getByRole("link", { name: "Get started" }).first().waitFor();
          await page.screenshot({ path: join(shots, "home.png"), fullPage: true });

          await page.getByRole("button", { name: "Search" }).first().click();
          const input = page.locator("#localsearch-input");
          await input.fill("effect floor");
          const first = page.locator(".VPLocalSearchBox .results li a").first();
          await first.waitFor();
          await first.click();
          await page.waitForURL(/\/guide\/security\.html/);
          const h1 = await page.locator(".vp-doc h1").first().textContent();
          assert.match(h1 ?? "", /effect floor/i);
          assert.ok(await page.locator(".vp-doc div[class*='language-'] button.copy").count() > 0);
          await page.screenshot({ path: join(shots, "guide.png") });
          // dark/light: the appearance switch toggles the theme
          const dark = async () => (await page.locator("html.dark").count()) === 1;
          const before = await dark();
          await page.locator("button.VPSwitchAppearance").first().click();
          assert.equal(await dark(), !before);
          await page.close();
        } finally {
          await browser.close();
          await server.close();
        }
        for (const f of ["home.png", "guide.png"]) {
          assert.ok((await Deno.stat(join(shots, f))).size > 10_000, f);
        }
      },
    });
  } finally {
    await Deno.remove(tmp, { recursive: true });
    await Deno.remove(gen, { recursive: true }).catch(() => {});
  }
});
