/**
 * The CLI reference page, generated from the real CLI: `hs --help`, then
 * `hs <command> --help` for every command its `Commands:` section lists
 * (recursively for command groups such as `session` and `auth`).
 *
 * @module
 */
import { hsEnv, runHs } from "./hs.ts";
import { type HelpCommand, parseCommands } from "./help_parse.ts";

/** The help text of one command path (`[]` is `hs` itself). */
export interface HelpPage {
  path: string[];
  /** Usage and description as listed by the parent's `Commands:` section. */
  entry?: HelpCommand;
  /** The command's `--help` output, exactly as printed (trailing whitespace trimmed). */
  text: string;
}

/** Commands listed in help output that get no page of their own. */
const SKIP = new Set(["help"]);

/**
 * Runs `hs [path…] --help` for the root and every listed command, in a fresh
 * temporary home, a few at a time. Pages are returned in the order the help lists them.
 */
export async function collectHelp(): Promise<HelpPage[]> {
  const home = await Deno.makeTempDir({ prefix: "hs-site-help-" });
  try {
    const env = hsEnv(home);
    const help = async (path: string[]): Promise<string> => {
      const r = await runHs([...path, "--help"], { cwd: home, env });
      if (r.code !== 0) {
        throw new Error(`hs ${[...path, "--help"].join(" ")} exited ${r.code}: ${r.stderr}`);
      }
      return normalizeHelp(r.stdout);
    };
    const pages: HelpPage[] = [];
    const visit = async (page: HelpPage): Promise<void> => {
      pages.push(page);
      const children = parseCommands(page.text).filter((c) => !SKIP.has(c.name));
      const texts = await pool(children, 6, (c) => help([...page.path, c.name]));
      const subPages = children.map((c, i) => ({
        path: [...page.path, c.name],
        entry: c,
        text: texts[i],
      }));
      for (const sub of subPages) await visit(sub);
    };
    await visit({ path: [], text: await help([]) });
    return pages;
  } finally {
    await Deno.remove(home, { recursive: true });
  }
}

/** Trims trailing whitespace of every line and of the whole text. */
export function normalizeHelp(text: string): string {
  return text.replace(/\r\n/g, "\n").split("\n").map((l) => l.trimEnd()).join("\n").trimEnd();
}

/** The heading text of a command page (`hs session list`). */
export function commandTitle(path: string[]): string {
  return ["hs", ...path].join(" ");
}

/** The anchor VitePress gives that heading (`hs-session-list`). */
export function commandAnchor(path: string[]): string {
  return ["hs", ...path].join("-");
}

/** Renders the reference page (markdown) from the collected help pages. */
export function renderCliReference(pages: HelpPage[]): string {
  const out: string[] = [
    "# CLI reference",
    "",
    "<!-- generated at build time by site/lib/cli_reference.ts: do not edit -->",
    "",
    "This page is generated when the site is built, by running `hs --help` and then",
    "`hs <command> --help` for every command that help lists, so it always says what the CLI",
    "says. For the guided version (agent flags, exit codes, environment) see",
    "[The hs command line](../guide/cli.md).",
    "",
    "| command | what it does |",
    "| --- | --- |",
  ];
  for (const p of pages.slice(1)) {
    const title = [commandTitle(p.path), p.entry?.usage].filter(Boolean).join(" ");
    const desc = escapeText(p.entry?.description ?? "").replace(/\|/g, "\\|");
    out.push(`| [\`${title}\`](#${commandAnchor(p.path)}) | ${desc} |`);
  }
  for (const p of pages) {
    out.push(
      "",
      `${"#".repeat(Math.min(2 + Math.max(p.path.length - 1, 0), 4))} ${commandTitle(p.path)}`,
    );
    if (p.entry?.description) out.push("", escapeText(p.entry.description));
    out.push("", "```text", p.text, "```");
  }
  return out.join("\n") + "\n";
}

/** Escapes text for a markdown paragraph VitePress compiles as a Vue template. */
function escapeText(s: string): string {
  return s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;")
    .replace(/\{\{/g, "&#123;&#123;");
}

/** Maps `items` through `fn` with at most `n` calls in flight; results keep their order. */
async function pool<T, R>(items: T[], n: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(n, items.length) }, worker));
  return results;
}
