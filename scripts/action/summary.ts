/**
 * Step "Summary and outputs" of action.yml: reads what the run step left in the artifact
 * folder (`$HS_ARTIFACT_DIR`: `events.jsonl`, `sessions/<id>/`, `<id>.hs-session.json`) and
 * writes the job summary (`$GITHUB_STEP_SUMMARY`: the session, the final answer, a usage
 * table with a cost column when prices are given) and the step's outputs (`$GITHUB_OUTPUT`:
 * `result`, `session`, `session-dir`, `archive`). No imports: it runs with `--no-config`.
 *
 * @module
 */

/** The totals of the `usage` events (one per model request). */
export interface UsageTotals {
  requests: number;
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
}

/** What a run's events say. */
export interface RunFacts {
  session: string;
  sessionDir: string;
  answer: string;
  error: boolean;
  errors: string[];
  usage: UsageTotals;
  tools: number;
  toolErrors: number;
}

/** Reads the `--events` JSON lines (a line that is not JSON is skipped). */
export function readEvents(text: string): RunFacts {
  const f: RunFacts = {
    session: "",
    sessionDir: "",
    answer: "",
    error: false,
    errors: [],
    usage: { requests: 0, input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
    tools: 0,
    toolErrors: 0,
  };
  for (const line of text.split("\n")) {
    let e: Record<string, unknown>;
    try {
      e = JSON.parse(line);
    } catch {
      continue;
    }
    if (e.type === "session" && !f.session) {
      f.session = String(e.id ?? "");
      f.sessionDir = String(e.dir ?? "");
    } else if (e.type === "usage") {
      const u = (e.usage ?? {}) as Record<string, number | undefined>;
      f.usage.requests++;
      f.usage.input += u.input_tokens ?? 0;
      f.usage.output += u.output_tokens ?? 0;
      f.usage.cacheRead += u.cache_read_input_tokens ?? 0;
      f.usage.cacheWrite += u.cache_creation_input_tokens ?? 0;
    } else if (e.type === "turn_end") {
      // a failed turn's output is its error message, not an answer
      f.error = e.error === true;
      f.answer = f.error ? "" : String(e.output ?? "");
      // its message says what the error events said, once
      if (f.error && e.output) f.errors = [String(e.output)];
    } else if (e.type === "error") {
      f.errors.push(String(e.message ?? ""));
    } else if (e.type === "tool_done") {
      f.tools++;
      if (e.error === true) f.toolErrors++;
    }
  }
  return f;
}

const n = (x: number) => x.toLocaleString("en-US");

/** The cost in USD of the totals at the prices (per million tokens), or undefined. */
export function costOf(
  u: UsageTotals,
  inputPrice: string,
  outputPrice: string,
): number | undefined {
  const pi = Number(inputPrice);
  const po = Number(outputPrice);
  if (!inputPrice || !outputPrice || !Number.isFinite(pi) || !Number.isFinite(po)) return undefined;
  return ((u.input + u.cacheRead + u.cacheWrite) * pi + u.output * po) / 1e6;
}

/** The job summary's markdown. */
export function summaryMarkdown(
  f: RunFacts,
  conf: Record<string, string>,
  exitCode: string,
  archive: string,
  cost: number | undefined,
): string {
  const ok = exitCode === "0";
  const out = [
    `## hs agent ${ok ? "✓" : "✗"}`,
    "",
    `Session \`${f.session || "none"}\` · provider \`${conf.provider || "?"}\` · model \`${
      conf.model || "?"
    }\` · exit code ${exitCode || "?"}`,
    "",
  ];
  if (f.answer) out.push("### Answer", "", f.answer, "");
  if (!ok) {
    out.push("### Error", "");
    out.push(
      f.errors.length
        ? f.errors.map((e) => `- ${e.replace(/\n/g, " ")}`).join("\n")
        : 'hs failed; its message is in the step\'s log (docs/fleet.md "Exit codes").',
      "",
    );
  }
  const u = f.usage;
  out.push(
    "### Usage",
    "",
    "| requests | input tokens | output tokens | cache read | cache write | tool calls | cost (USD) |",
    "| ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    `| ${u.requests} | ${n(u.input)} | ${n(u.output)} | ${n(u.cacheRead)} | ${
      n(u.cacheWrite)
    } | ${f.tools}${f.toolErrors ? ` (${f.toolErrors} failed)` : ""} | ${
      cost === undefined ? "—" : cost.toFixed(4)
    } |`,
    "",
  );
  if (archive) {
    out.push(
      `Review it: download the artifact, then \`hs session import ${archive}\` and \`hs web\`.`,
      "",
    );
  }
  return out.join("\n");
}

/** One `$GITHUB_OUTPUT` entry; a multi-line value with a delimiter that is not in it. */
export function outputEntry(name: string, value: string): string {
  if (!value.includes("\n") && !value.includes("\r")) return `${name}=${value}\n`;
  let delim = `HS_EOF_${crypto.randomUUID().replaceAll("-", "")}`;
  while (value.includes(delim)) delim += "_";
  return `${name}<<${delim}\n${value}\n${delim}\n`;
}

function keyValues(text: string): Record<string, string> {
  const kv: Record<string, string> = {};
  for (const line of text.split("\n")) {
    const i = line.indexOf("=");
    if (i > 0) kv[line.slice(0, i).trim()] = line.slice(i + 1).trim();
  }
  return kv;
}

function readOr(path: string, fallback = ""): string {
  try {
    return Deno.readTextFileSync(path);
  } catch {
    return fallback;
  }
}

function main(): void {
  const env = (k: string) => Deno.env.get(k) ?? "";
  const art = env("HS_ARTIFACT_DIR");
  const facts = readEvents(readOr(`${art}/events.jsonl`));
  const sessionDir = facts.session ? `${art}/sessions/${facts.session}` : "";
  const conf = sessionDir ? keyValues(readOr(`${sessionDir}/session.conf`)) : {};
  const archiveName = facts.session ? `${facts.session}.hs-session.json` : "";
  const archive = archiveName && readOr(`${art}/${archiveName}`, "\0") !== "\0" ? archiveName : "";
  const cost = costOf(facts.usage, env("HS_INPUT_PRICE"), env("HS_OUTPUT_PRICE"));
  const md = summaryMarkdown(facts, conf, env("HS_EXIT_CODE"), archive, cost);
  Deno.writeTextFileSync(env("GITHUB_STEP_SUMMARY"), md + "\n", { append: true });
  const outputs = outputEntry("result", facts.answer) +
    outputEntry("session", facts.session) +
    outputEntry("session-dir", sessionDir) +
    outputEntry("archive", archive ? `${art}/${archive}` : "");
  Deno.writeTextFileSync(env("GITHUB_OUTPUT"), outputs, { append: true });
}

if (import.meta.main) main();
