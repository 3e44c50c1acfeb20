/**
 * The page shell every page of `hs web` shares: the navigation (sessions,
 * /context, /plugins and the plugins' own pages), the theme switch, a skip
 * link, the banner of packs waiting for consent, and the two assets (the
 * stylesheet and the scripts; nothing inline, as the CSP requires).
 *
 * @module
 */
import { type Html, markup } from "./html.ts";
import { ASSET_VERSION } from "./assets.ts";

/** What a page puts in the shell. */
export interface ShellOptions {
  /** The `<title>`. */
  title: string;
  /** The navigation entry to mark: "sessions", "context", "plugins" or `page:<id>`. */
  active: string;
  /** Plugin pages for the navigation. */
  pages: { id: string; title: string }[];
  body: Html;
  /** Shown above the main content (packs waiting for consent). */
  banner?: Html;
  /** Attributes of `<main>` (the session page's `data-session`). */
  main?: Html;
}

function link(href: string, label: string, current: boolean): Html {
  const aria = current ? markup` aria-current="page"` : "";
  return markup`<li><a href="${href}"${aria}>${label}</a></li>`;
}

/** A whole HTML document. */
export function shell(o: ShellOptions): string {
  const v = ASSET_VERSION;
  const nav = [
    link("/", "Sessions", o.active === "sessions"),
    link("/context", "Context", o.active === "context"),
    link("/plugins", "Plugins", o.active === "plugins"),
    ...o.pages.map((p) =>
      link(`/p/${encodeURIComponent(p.id)}`, p.title, o.active === `page:${p.id}`)
    ),
  ];
  return "<!doctype html>\n" + markup`<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="same-origin">
<title>${o.title} · hs web</title>
<link rel="icon" href="/assets/icon.svg?v=${v}" type="image/svg+xml">
<link rel="stylesheet" href="/assets/app.css?v=${v}">
<script src="/assets/theme.js?v=${v}"></script>
<script src="/assets/app.js?v=${v}" defer></script>
</head><body>
<a class="skip" href="#main">Skip to content</a>
<header class="top"><nav aria-label="Main"><a class="brand" href="/">hs web</a><ul>${nav}</ul></nav><button type="button" id="theme" class="theme" aria-label="Theme: automatic" title="Switch between automatic, light and dark">◐</button></header>
${o.banner ?? ""}<main id="main"${o.main ?? ""}>${o.body}</main>
</body></html>`.value;
}
