/**
 * `hs web` in a real browser (playwright-core driving Debian's chromium, as
 * the site's test does): refused without the token, opened with it; a
 * scripted turn streams in; a message is sent; a turn is cancelled; the
 * floor's `ask` is approved; /context; a plugin page is rendered and its
 * action triggered (the built-in memory page, and a hostile plugin's page);
 * a pack's guards are approved on /plugins; the theme switches to dark. XSS
 * payloads sit in the user's message, the model's text, a tool's output and
 * plugin page data; none becomes an element, none runs.
 *
 * Screenshots of each page go to `site/screenshots/web-test/` (ignored by
 * git); `deno task site:screens` runs this test with `HS_WEB_SHOTS` set to
 * `site/screenshots/`, which holds the ones docs/web.md shows.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { chromiumMissing, launchChromium } from "../../site/lib/browser.ts";
import { loopbackWorkspace, REPO, writeFile } from "../support/workspace.ts";
import { startHsWeb } from "../support/web.ts";

const noBrowser = chromiumMissing();
if (noBrowser) console.warn(`web_browser_test: skipped: ${noBrowser}`);

const SHOTS = Deno.env.get("HS_WEB_SHOTS") ?? join(REPO, "site", "screenshots", "web-test");
const XSS = `<img src=x onerror="window.__pwned=1">`;

/** The model: a tool-using turn, a follow-up, a slow turn to cancel, a turn that asks. */
const SCRIPT = [
  {
    text: "I'll read notes.txt first.",
    toolCalls: [{ id: "toolu_web_1", name: "read_file", input: { path: "notes.txt" } }],
    chunkSize: 4,
    delayMs: 15,
  },
  {
    text:
      `notes.txt has **31 words** on 2 lines. <script>window.__pwned=1</script> [x](javascript:window.__pwned=1)`,
    chunkSize: 4,
    delayMs: 15,
  },
  { text: "Yes: the second line repeats the first one.", chunkSize: 6, delayMs: 5 },
  { text: "slow ".repeat(400), chunkSize: 2, delayMs: 25 },
  {
    text: "Saving the summary.",
    toolCalls: [{
      id: "toolu_web_2",
      name: "write_file",
      input: { path: "summaries/notes.md", content: "31 words\n" },
    }],
  },
  { text: "Saved to summaries/notes.md.", chunkSize: 6, delayMs: 5 },
];

async function copyDir(from: string, to: string): Promise<void> {
  await Deno.mkdir(to, { recursive: true });
  for await (const e of Deno.readDir(from)) {
    if (e.isDirectory) await copyDir(join(from, e.name), join(to, e.name));
    else await Deno.copyFile(join(from, e.name), join(to, e.name));
  }
}

/** Nothing hostile became an element or ran. */
async function clean(page: Page, where: string): Promise<void> {
  assert.equal(await page.evaluate(() => (globalThis as { __pwned?: number }).__pwned), undefined);
  assert.equal(await page.locator("img").count(), 0, `an <img> on ${where}`);
  const scripts = await page.locator("script").evaluateAll((list) =>
    list.map((s) => new URL((s as unknown as { src: string }).src || "x:inline").pathname)
  );
  assert.deepEqual(scripts, ["/assets/theme.js", "/assets/app.js"], where);
}

Deno.test({
  name: "hs web in chromium: token, streaming, send, cancel, ask, /context, plugin pages, consent",
  ignore: noBrowser !== undefined,
  fn: async (t) => {
    await Deno.mkdir(SHOTS, { recursive: true });
    const lb = await loopbackWorkspace(SCRIPT);
    const { w } = lb;
    await writeFile(
      join(w.ws, "notes.txt"),
      `Harness notes: words for the count. ${XSS}\nHarness notes: words for the count. ${XSS}\n`,
    );
    await writeFile(
      join(w.ws, ".harness", "floor.json"),
      JSON.stringify({ rules: { ask: ["write_file(summaries/**)"] } }),
    );
    // a provider with a long name, address, key variable and description: /context still fits
    await writeFile(
      join(w.ws, ".harness", "providers", "llama-cpp-server-on-the-build-workstation.conf"),
      [
        "protocol=openai",
        "url=http://127.0.0.1:9/a/rather/long/path/of/a/reverse/proxy/v1/chat/completions",
        "model=qwen2.5-coder-32b-instruct-q4_k_m",
        "auth_env=BUILD_WORKSTATION_LLAMA_CPP_SERVER_API_KEY_FOR_THE_TEAM",
        "description=The team's llama.cpp server on the build workstation, behind the reverse proxy of the office network",
        "",
      ].join("\n"),
    );
    await writeFile(
      join(w.home, "memory", "web-demo.md"),
      `---\ndescription: ${JSON.stringify(`A note ${XSS}`)}\n---\nremember this\n`,
    );
    await writeFile(
      join(w.home, "plugins.json"),
      JSON.stringify({
        runtimePlugins: [{
          id: "hostile",
          module: join(REPO, "tests", "fixtures", "web", "hostile_page.ts"),
        }],
      }),
    );
    await copyDir(join(REPO, "examples", "packs", "reviewer"), join(w.home, "packs", "reviewer"));
    const web = await startHsWeb([], { cwd: w.ws, env: w.env });
    const browser = await launchChromium();
    const dialogs: string[] = [];
    try {
      const page = await browser.context.newPage();
      // a backstop, not a budget: the full suite runs beside this on two cores
      page.setDefaultTimeout(60_000);
      page.on("dialog", (d) => {
        dialogs.push(d.message());
        d.dismiss().catch(() => {});
      });
      const errors: string[] = [];
      page.on("pageerror", (e) => errors.push(e.message));
      const shot = (name: string, full = true) =>
        page.screenshot({ path: join(SHOTS, `web-${name}.png`), fullPage: full });

      await t.step("refused without the token", async () => {
        const r = await page.goto(`${web.origin}/`);
        assert.equal(r?.status(), 401);
        await page.getByRole("heading", { name: "Token needed" }).waitFor();
      });

      await t.step("opened with the token (which then leaves the address bar)", async () => {
        await page.goto(web.url);
        assert.equal(page.url(), `${web.origin}/`);
        await page.getByRole("heading", { name: "Sessions", level: 1 }).waitFor();
        await page.getByText("Behavior packs wait for your consent.").waitFor();
        await clean(page, "/");
      });

      let session = "";
      await t.step("a scripted turn streams in: text, the tool call and its result", async () => {
        await page.getByLabel("Start a new session").fill(
          `How many words are in notes.txt? ${XSS}`,
        );
        await page.getByRole("button", { name: "Start" }).click();
        await page.waitForURL(/\/s\/[^/]+$/);
        session = decodeURIComponent(page.url().split("/s/")[1]);
        // the answer so far, before it is saved as a message
        await page.locator("#live .live-text").first().waitFor();
        const transcript = page.locator("#transcript");
        await transcript.getByText("notes.txt has 31 words on 2 lines.").waitFor();
        // the Markdown is rendered (on the server): the bold text is a <strong>, the link inert
        const strong = transcript.locator("article.msg-assistant .md strong", {
          hasText: "31 words",
        });
        assert.equal(await strong.count(), 1);
        assert.equal(await transcript.locator("a[href^='javascript']").count(), 0);
        assert.doesNotMatch(await transcript.innerText(), /\*\*31 words\*\*/);
        await transcript.locator(".call .tool-name", { hasText: "read_file" }).waitFor();
        const result = transcript.locator("article.msg-tool");
        await result.locator(".status-ok").waitFor();
        await result.locator("summary").click();
        assert.match(await result.locator("pre.out").innerText(), /<img src=x onerror=/);
        assert.match(await transcript.innerText(), /<script>window\.__pwned=1<\/script>/);
        assert.match(await transcript.locator("article.msg-user").innerText(), /<img src=x/);
        await page.getByText("Idle", { exact: true }).waitFor();
        await clean(page, "the session");
      });

      await t.step("send a message", async () => {
        await page.getByLabel("Message", { exact: true }).fill("Is anything repeated?");
        await page.getByRole("button", { name: "Send" }).click();
        await page.locator("#transcript").getByText("the second line repeats").waitFor();
      });

      await t.step("cancel a turn", async () => {
        await page.getByLabel("Message", { exact: true }).fill("Say slow, slowly.");
        await page.getByRole("button", { name: "Send" }).click();
        await page.locator("#live").getByText("slow slow slow").waitFor();
        await page.getByRole("button", { name: "Cancel turn" }).click();
        // the status line says so once the turn is over (an error article may say it first)
        await page.locator("#status", { hasText: "Cancelled" }).waitFor();
        await page.locator("#cancel-btn[disabled]").waitFor();
        assert.equal(await page.locator("#live").innerText(), "");
        assert.equal(await page.locator("#transcript").getByText("slow slow slow").count(), 0);
      });

      await t.step("approve the floor's ask", async () => {
        await page.getByLabel("Message", { exact: true }).fill("Save a summary.");
        await page.getByRole("button", { name: "Send" }).click();
        const ask = page.getByRole("alertdialog");
        await ask.waitFor();
        assert.match(await ask.innerText(), /wants to write_file .*summaries\/notes\.md/);
        await page.getByText("Waiting for your answer").waitFor();
        await shot("ask", false);
        await ask.getByRole("button", { name: "Allow once" }).click();
        await page.locator("#transcript").getByText("Saved to summaries/notes.md.").waitFor();
        assert.equal(await Deno.readTextFile(join(w.ws, "summaries", "notes.md")), "31 words\n");
        assert.equal(await page.getByRole("alertdialog").count(), 0);
        await page.getByText("Idle", { exact: true }).waitFor();
        await shot("session");
        await clean(page, "the session");
      });

      await t.step("the same page in the dark theme", async () => {
        const theme = page.locator("#theme");
        await theme.click(); // automatic → light
        await theme.click(); // light → dark
        assert.equal(await page.locator("html").getAttribute("data-theme"), "dark");
        assert.equal(await theme.getAttribute("aria-label"), "Theme: dark");
        await page.reload();
        assert.equal(await page.locator("html").getAttribute("data-theme"), "dark");
        await shot("session-dark", false);
        await theme.click(); // dark → automatic
        assert.equal(await page.locator("html").getAttribute("data-theme"), null);
      });

      await t.step(
        "/context: model, prompt sections, tools with owners, hooks, floor",
        async () => {
          await page.getByRole("link", { name: "Context" }).click();
          await page.getByRole("heading", { name: "Context", level: 1 }).waitFor();
          const text = await page.locator("main").innerText();
          assert.match(text, /Provider loop, model scripted-1/);
          assert.match(text, /system\s+— builtin:core · order 0/);
          const bash = page.locator("tr.tool", { hasText: "bash" }).first();
          assert.match(await bash.innerText(), /builtin:core-tools/);
          await bash.getByText("Schema").click();
          assert.match(await bash.locator("pre").innerText(), /"command"/);
          assert.match(text, /10-send\s+built-in \(builtin:core\)/);
          assert.match(text, /write_file\(summaries\/\*\*\)/);
          await shot("context", false); // the top: the whole page is long
          // a 1280 px window holds every table: neither the page nor a table scrolls sideways
          assert.equal(page.viewportSize()?.width, 1280);
          const overflow = await page.evaluate(() => {
            type Box = { scrollWidth: number; clientWidth: number; textContent: string | null };
            const d = (globalThis as unknown as {
              document: { documentElement: Box; querySelectorAll(s: string): Iterable<Box> };
            }).document;
            const wide = [...d.querySelectorAll(".table-wrap, main, pre")].filter((e) =>
              e.scrollWidth > e.clientWidth + 1
            ).map((e) =>
              `${e.scrollWidth} > ${e.clientWidth}: ${(e.textContent ?? "").slice(0, 60)}`
            );
            const root = d.documentElement;
            return { page: root.scrollWidth - root.clientWidth, wide };
          });
          assert.deepEqual(overflow, { page: 0, wide: [] });
          await clean(page, "/context");
        },
      );

      await t.step(
        "a plugin page from its descriptor, and its action (memory: delete)",
        async () => {
          await page.getByRole("link", { name: "Memory" }).click();
          await page.getByRole("heading", { name: "Memory", level: 1 }).waitFor();
          const row = page.locator("tr", { hasText: "web-demo" });
          assert.match(await row.innerText(), /A note <img src=x onerror=/);
          await shot("plugin-page");
          await row.getByRole("button", { name: /^Delete/ }).click();
          await page.getByText("Delete: done").waitFor();
          assert.equal(await page.locator("tr", { hasText: "web-demo" }).count(), 0);
          await assert.rejects(Deno.stat(join(w.home, "memory", "web-demo.md")));
          // post, redirect, get: a reload shows the page, not the action again
          assert.match(page.url(), /\/p\/memory\?result=[0-9a-f-]+$/);
          await page.reload();
          await page.getByRole("heading", { name: "Memory", level: 1 }).waitFor();
          assert.equal(await page.getByText("Delete: done").count(), 0);
          await clean(page, "/p/memory");
        },
      );

      await t.step("a hostile plugin page stays text, its action too", async () => {
        await page.goto(`${web.origin}/p/hostile`);
        const h1 = page.getByRole("heading", { level: 1 });
        assert.equal(await h1.innerText(), `Hostile ${XSS}`);
        assert.match(await page.locator("main").innerText(), /value <script>window\.__pwned=1/);
        await page.locator(".page-action button").click();
        await page.getByText(/: done$/).waitFor();
        assert.match(await page.locator(".result-box").innerText(), /echoed\s+<img src=x/);
        assert.match(await page.locator("main").innerText(), /pings\s+1/);
        await clean(page, "/p/hostile");
      });

      await t.step("/plugins: plugin states, and a pack's guards approved", async () => {
        await page.getByRole("link", { name: "Plugins", exact: true }).click();
        await page.getByRole("heading", { name: "Plugins", level: 1 }).waitFor();
        const main = page.locator("main");
        assert.match(await main.locator("tr", { hasText: "memory" }).first().innerText(), /active/);
        assert.match(
          await main.locator("tr", { hasText: "hostile" }).first().innerText(),
          /active/,
        );
        // the example pack's two bots both wait; the foreground one is approved here
        const bot = main.locator("tr", { hasText: "awaiting approval" }).filter({
          hasText: "foreground",
        });
        assert.match(await bot.innerText(), /^reviewer/);
        await shot("plugins");
        await bot.getByRole("button", { name: "Approve the guards of reviewer/reviewer" }).click();
        await page.getByText("Approved the guards of reviewer/reviewer.").waitFor();
        assert.match(
          await main.locator("tr", { hasText: "reviewer" }).first().innerText(),
          /attached/,
        );
      });

      await t.step("the sessions list", async () => {
        await page.getByRole("link", { name: "Sessions" }).click();
        await page.getByRole("heading", { name: "Sessions", level: 1 }).waitFor();
        // the foreground bot was approved: no banner any more
        assert.equal(await page.getByText("Behavior packs wait for your consent.").count(), 0);
        const row = page.locator("tr", { hasText: session });
        assert.match(await row.innerText(), /How many words are in notes\.txt\? <img src=x/);
        await shot("sessions");
        await clean(page, "/");
      });

      assert.deepEqual(dialogs, []);
      assert.deepEqual(errors, []);
      await page.close();
    } finally {
      await browser.close();
      const r = await web.stop();
      await lb.close();
      assert.equal(r.code, 0, r.stderr);
    }
  },
});
