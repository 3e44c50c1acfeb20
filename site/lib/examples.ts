/**
 * Examples in the docs that are executed by the tests. A fenced block is an
 * example when the line right above it (blank lines aside) is the marker
 *
 *     <!-- test -->                      run it; it must exit 0
 *     <!-- test expect="some text" -->   …and print that text (stdout or stderr)
 *
 * Each example runs in a fresh temporary home and workspace:
 * - `sh`/`bash`/`shell`: a bash script (`set -euo pipefail`) in the workspace, which
 *   is trusted, with `hs` on PATH (the CLI from source) and `deno task hs` meaning `hs`;
 * - `ts`/`typescript`: a module type-checked and run with the repository's config,
 *   its relative imports read from the repository root (`./mod.ts`);
 * - `scheme`: a file run by `hs scheme`.
 *
 * @module
 */
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { REPO } from "./paths.ts";
import { hsArgv, hsEnv, runHs } from "./hs.ts";
import { fencedLines } from "./markdown.ts";

/** A marked example. */
export interface Example {
  /** The file, relative to the repository root. */
  file: string;
  /** 1-based line of the opening fence. */
  line: number;
  lang: string;
  code: string;
  /** Text the output must contain. */
  expect?: string;
}

/** Languages an example may be written in. */
export const RUNNABLE = new Set([
  "sh",
  "bash",
  "shell",
  "ts",
  "typescript",
  "scheme",
]);

const MARKER = /^<!--\s*test(?:\s+expect="([^"]*)")?\s*-->$/;

/** The marked examples of one markdown text; a marker above anything else is an error. */
export function extractExamples(md: string, file: string): Example[] {
  const lines = fencedLines(md);
  const out: Example[] = [];
  for (let i = 0; i < lines.length; i++) {
    const m = lines[i].code ? null : MARKER.exec(lines[i].line.trim());
    if (!m) continue;
    let j = i + 1;
    while (j < lines.length && !lines[j].code && lines[j].line.trim() === "") {
      j++;
    }
    const open = j < lines.length && lines[j].code
      ? /^\s*(`{3,}|~{3,})\s*(\S*)/.exec(lines[j].line)
      : null;
    if (!open) {
      throw new Error(
        `${file}:${i + 1}: a test marker must stand right above a fenced block`,
      );
    }
    const lang = open[2].toLowerCase();
    if (!RUNNABLE.has(lang)) {
      throw new Error(
        `${file}:${j + 1}: cannot run a \`${lang || "plain"}\` block (${[...RUNNABLE].join(", ")})`,
      );
    }
    let k = j + 1;
    const body: string[] = [];
    while (
      k < lines.length && lines[k].code && lines[k].line.trim() !== open[1]
    ) body.push(lines[k++].line);
    out.push({
      file,
      line: j + 1,
      lang,
      code: body.join("\n") + "\n",
      expect: m[1],
    });
    i = k;
  }
  return out;
}

/** The marked examples of README.md and docs/*.md. */
export async function repoExamples(): Promise<Example[]> {
  const files = ["README.md"];
  for await (const e of Deno.readDir(join(REPO, "docs"))) {
    if (e.isFile && e.name.endsWith(".md")) files.push(`docs/${e.name}`);
  }
  const out: Example[] = [];
  for (const f of files.sort()) {
    out.push(...extractExamples(await Deno.readTextFile(join(REPO, f)), f));
  }
  return out;
}

/** What running an example gave. */
export interface ExampleRun {
  code: number;
  output: string;
}

/** Rewrites `deno task hs …` (also through npx) to the `hs` on PATH. */
export function shellForTest(code: string): string {
  return code.replace(/(?:npx -y deno@[\d.]+|deno) task hs(?::all)?\b/g, "hs");
}

/** Makes the relative imports of a TypeScript example absolute (from the repository root). */
export function tsForTest(code: string): string {
  return code.replace(
    /(\bfrom\s+|\bimport\s*\(\s*|\bimport\s+)(["'])(\.{1,2}\/[^"']+)\2/g,
    (_, pre: string, q: string, spec: string) =>
      `${pre}${q}${pathToFileURL(join(REPO, spec)).href}${q}`,
  );
}

/**
 * Type-checks the TypeScript examples together, in one `deno check` (one graph of mod.ts
 * instead of one an example, ~6 s each): a failure names each example's file and line.
 */
export async function checkExamples(examples: Example[]): Promise<ExampleRun> {
  const ts = examples.filter((ex) => ex.lang === "ts" || ex.lang === "typescript");
  const root = await Deno.makeTempDir({ prefix: "hs-example-check-" });
  try {
    const files: string[] = [];
    for (const [i, ex] of ts.entries()) {
      const name = `${ex.file.replace(/[^\w.-]+/g, "_")}_${ex.line}_${i}.ts`;
      await Deno.writeTextFile(join(root, name), tsForTest(ex.code));
      files.push(name);
    }
    if (files.length === 0) return { code: 0, output: "" };
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["check", "--quiet", "--config", join(REPO, "deno.json"), ...files],
      cwd: root,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).output();
    const dec = new TextDecoder();
    return { code: out.code, output: dec.decode(out.stdout) + dec.decode(out.stderr) };
  } finally {
    await Deno.remove(root, { recursive: true });
  }
}

/**
 * Runs one example in a fresh temporary home and workspace. A TypeScript example is
 * type-checked first unless `checked` says {@link checkExamples} did it.
 */
export async function runExample(
  ex: Example,
  extraEnv: Record<string, string> = {},
  opts: { checked?: boolean } = {},
): Promise<ExampleRun> {
  const root = await Deno.makeTempDir({ prefix: "hs-example-" });
  try {
    const home = join(root, "home");
    const ws = join(root, "work");
    const bin = join(root, "bin");
    for (const d of [home, ws, bin]) await Deno.mkdir(d, { recursive: true });
    const hs = join(bin, "hs");
    await Deno.writeTextFile(
      hs,
      `#!/bin/sh\nexec ${hsArgv().map(shq).join(" ")} "$@"\n`,
    );
    await Deno.chmod(hs, 0o755);
    const env = hsEnv(home, {
      ...extraEnv,
      PATH: `${bin}:${Deno.env.get("PATH") ?? "/usr/bin:/bin"}`,
    });
    let argv: string[];
    if (ex.lang === "ts" || ex.lang === "typescript") {
      await Deno.writeTextFile(join(ws, "example.ts"), tsForTest(ex.code));
      argv = [
        Deno.execPath(),
        "run",
        "-A",
        "--quiet",
        opts.checked ? "--no-check" : "--check",
        "--config",
        join(REPO, "deno.json"),
        "example.ts",
      ];
    } else if (ex.lang === "scheme") {
      await Deno.writeTextFile(join(ws, "example.scm"), ex.code);
      argv = [hs, "scheme", "example.scm"];
    } else {
      const trust = await runHs(["trust", ws], { cwd: ws, env });
      if (trust.code !== 0) {
        return { code: trust.code, output: trust.stdout + trust.stderr };
      }
      await Deno.writeTextFile(
        join(ws, ".example.sh"),
        `set -euo pipefail\n${shellForTest(ex.code)}`,
      );
      argv = ["bash", ".example.sh"];
    }
    const out = await new Deno.Command(argv[0], {
      args: argv.slice(1),
      cwd: ws,
      env,
      clearEnv: true,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).output();
    const dec = new TextDecoder();
    return {
      code: out.code,
      output: dec.decode(out.stdout) + dec.decode(out.stderr),
    };
  } finally {
    await Deno.remove(root, { recursive: true });
  }
}

function shq(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}
