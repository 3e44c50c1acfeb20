/**
 * VitePress configuration of the documentation site. The pages come from the
 * generated source folder (`HS_SITE_GEN`, default `site/.gen`, written by
 * `site/lib/sync.ts`), whose `nav.json` holds the navigation.
 *
 * @module
 */
import { defineConfig } from "vitepress";
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import process from "node:process";

const root = resolve(import.meta.dirname ?? ".", "..");
const gen = process.env.HS_SITE_GEN ?? join(root, ".gen");
const nav = JSON.parse(readFileSync(join(gen, "nav.json"), "utf8"));

export default defineConfig({
  title: "Harness",
  description:
    "hs — an LLM agent harness you extend with executables, TypeScript plugins and Scheme",
  srcDir: gen,
  outDir: process.env.HS_SITE_OUT ?? join(root, "dist"),
  cacheDir: process.env.HS_SITE_CACHE ?? join(root, ".vitepress", "cache"),
  base: process.env.SITE_BASE ?? "/",
  srcExclude: ["public/**"],
  lastUpdated: false,
  cleanUrls: false,
  appearance: true,
  markdown: { lineNumbers: false },
  themeConfig: {
    nav: [
      ...nav.nav,
      { text: "deno doc", link: "/api/index.html", target: "_self" },
    ],
    sidebar: nav.sidebar,
    search: { provider: "local" },
    outline: { level: [2, 3] },
    footer: { message: "Harness (hs) — built from docs/ and the CLI's own help" },
  },
});
