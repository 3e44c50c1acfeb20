/**
 * The guide's pages and navigation: which file of `docs/` is which guide page,
 * in which order, and the sidebar and top navigation VitePress shows.
 *
 * @module
 */

/** A sidebar or nav link. `target: "_self"` makes a plain page load (not a VitePress page). */
export interface NavItem {
  text: string;
  link?: string;
  target?: string;
  items?: NavItem[];
  collapsed?: boolean;
}

/** The navigation written to `nav.json` for `.vitepress/config.mts`. */
export interface SiteNav {
  nav: NavItem[];
  sidebar: NavItem[];
}

/** Guide pages from docs/, in reading order, with their sidebar titles. */
export const GUIDE_ORDER: { file: string; text: string }[] = [
  { file: "extending.md", text: "Extending with executables" },
  { file: "compat.md", text: "A Claude Code project" },
  { file: "plugins.md", text: "Runtime plugins (TypeScript)" },
  { file: "packs.md", text: "Behavior packs" },
  { file: "providers.md", text: "Providers" },
  { file: "sessions.md", text: "Sessions" },
  { file: "security.md", text: "Security and the effect floor" },
  { file: "scheme.md", text: "Scheme language reference" },
  { file: "performance.md", text: "Performance" },
  { file: "architecture.md", text: "Architecture of the kernel" },
];

/** docs/ files the sidebar's Introduction links (`/guide/web`), so not listed again. */
export const INTRO_DOCS: string[] = ["web.md"];

/** docs/ files shown under Reference instead of Guide. */
export const REFERENCE_DOCS: { file: string; text: string }[] = [
  { file: "cli.md", text: "The command line" },
];

/**
 * Where "Behavior packs" points while docs/ has no page of its own for them: the
 * Scheme reference's section for behavior authors.
 */
export const PACKS_FALLBACK = "/guide/scheme#extensions-for-behavior-authors";

/** The link of a docs/ file's guide page (`extending.md` → `/guide/extending`). */
export function guideLink(file: string): string {
  return `/guide/${file.replace(/\.md$/, "")}`;
}

/**
 * Builds the navigation from the docs/ files that exist (`docs` maps a file name to
 * its first heading). Files the order does not know are appended to the guide, so a
 * new page in docs/ shows up without touching the site.
 */
export function buildNav(docs: Map<string, string>): SiteNav {
  const known = new Set([...GUIDE_ORDER, ...REFERENCE_DOCS].map((g) => g.file).concat(INTRO_DOCS));
  const guide: NavItem[] = [];
  for (const g of GUIDE_ORDER) {
    if (docs.has(g.file)) guide.push({ text: g.text, link: guideLink(g.file) });
    else if (g.file === "packs.md") guide.push({ text: g.text, link: PACKS_FALLBACK });
  }
  for (const [file, title] of [...docs].sort(([a], [b]) => a.localeCompare(b))) {
    if (!known.has(file)) guide.push({ text: title, link: guideLink(file) });
  }
  const reference: NavItem[] = [
    ...REFERENCE_DOCS.filter((r) => docs.has(r.file)).map((r) => ({
      text: r.text,
      link: guideLink(r.file),
    })),
    { text: "CLI reference (generated)", link: "/reference/cli" },
    { text: "API reference", link: "/reference/api" },
  ];
  return {
    nav: [
      { text: "Guide", link: "/guide/getting-started" },
      { text: "CLI", link: "/reference/cli" },
      { text: "API", link: "/reference/api" },
    ],
    sidebar: [
      {
        text: "Introduction",
        items: [
          { text: "Getting started", link: "/guide/getting-started" },
          { text: "Web UI (hs web)", link: "/guide/web" },
        ],
      },
      { text: "Guide", items: guide },
      { text: "Reference", items: reference },
    ],
  };
}
