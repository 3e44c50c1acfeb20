/**
 * Test support: runs a composite action's steps the way the GitHub runner does, without
 * GitHub. Each `run:` step is a bash script (`bash --noprofile --norc -eo pipefail`, the
 * runner's `shell: bash`) with its `env:` and `working-directory:`, `GITHUB_OUTPUT`,
 * `GITHUB_ENV` and `GITHUB_PATH` files of its own (read back after it: outputs, variables, PATH
 * entries for the next steps) and the job's `GITHUB_STEP_SUMMARY`, `GITHUB_WORKSPACE`,
 * `RUNNER_TEMP` and `GITHUB_ACTION_PATH`. `${{ … }}` is evaluated for the contexts the action
 * uses (`inputs`, `github`, `runner`, `steps.<id>.outputs`, `env`), and `if:` for `always()`,
 * `success()`, `failure()`, `==`, `!=` and `&&` — anything else throws, so the action cannot
 * use an expression this runner would misread. A `uses:` step is not run: it is recorded with
 * its evaluated `with:`, for the test to check.
 *
 * @module
 */
import { join } from "node:path";
import type { CompositeActionT } from "./github_schemas.ts";

/** One step as it ran (or was skipped, or recorded). */
export interface StepRun {
  name: string;
  id?: string;
  kind: "run" | "uses";
  ran: boolean;
  code?: number;
  stdout?: string;
  stderr?: string;
  /** A `uses:` step: the action and its evaluated `with:`. */
  uses?: string;
  with?: Record<string, string>;
  outputs: Record<string, string>;
}

/** What a composite action did. */
export interface CompositeRun {
  steps: StepRun[];
  /** The action's outputs (`outputs.<id>.value` evaluated). */
  outputs: Record<string, string>;
  /** The text of `GITHUB_STEP_SUMMARY`. */
  summary: string;
  /** True when every step that ran succeeded. */
  success: boolean;
}

/** Where and how a composite action runs. */
export interface CompositeOptions {
  /** The action's folder (GITHUB_ACTION_PATH). */
  actionPath: string;
  /** The job's folder for this run: RUNNER_TEMP and the GITHUB_* files go under it. */
  jobDir: string;
  /** GITHUB_WORKSPACE. */
  workspace: string;
  /** `with:` of the calling step. */
  inputs: Record<string, string>;
  /** The calling step's environment (the job's, plus its `env:`: where secrets come in). */
  env: Record<string, string>;
}

/** `$GITHUB_OUTPUT` / `$GITHUB_ENV` lines: `k=v` and `k<<DELIM … DELIM`. */
export function parseCommandFile(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const heredoc = /^([^=<]+)<<(.+)$/.exec(line);
    if (heredoc) {
      const end = lines.indexOf(heredoc[2], i + 1);
      if (end < 0) throw new Error(`unterminated ${heredoc[1]}<<${heredoc[2]}`);
      out[heredoc[1]] = lines.slice(i + 1, end).join("\n");
      i = end;
    } else if (line.includes("=")) {
      const k = line.slice(0, line.indexOf("="));
      out[k] = line.slice(line.indexOf("=") + 1);
    } else if (line.trim()) throw new Error(`not a command file line: ${line}`);
  }
  return out;
}

type Lookup = (path: string) => string;

/** Evaluates one `${{ }}` expression body: a context path or a quoted literal. */
function value(expr: string, lookup: Lookup): string {
  const e = expr.trim();
  const lit = /^'((?:[^']|'')*)'$/.exec(e);
  if (lit) return lit[1].replaceAll("''", "'");
  if (!/^[A-Za-z_][A-Za-z0-9_-]*(\.[A-Za-z_][A-Za-z0-9_-]*)*$/.test(e)) {
    throw new Error(`unsupported expression: ${e}`);
  }
  return lookup(e);
}

/** Substitutes every `${{ … }}` of a text. */
export function substitute(text: string, lookup: Lookup): string {
  return text.replace(/\$\{\{([\s\S]*?)\}\}/g, (_, e: string) => value(e, lookup));
}

/** Evaluates an `if:` (status functions, ==, !=, &&); `failed`: a step before failed. */
export function condition(text: string | undefined, lookup: Lookup, failed: boolean): boolean {
  const body = (text ?? "success()").trim().replace(/^\$\{\{([\s\S]*)\}\}$/, "$1");
  let status = false; // a status function named: it decides, else success() is implied
  let ok = true;
  for (const term of body.split("&&").map((t) => t.trim())) {
    if (term === "always()") status = true;
    else if (term === "success()") [status, ok] = [true, ok && !failed];
    else if (term === "failure()") [status, ok] = [true, ok && failed];
    else {
      const cmp = /^(.+?)\s*(==|!=)\s*(.+)$/.exec(term);
      if (cmp) {
        const eq = value(cmp[1], lookup) === value(cmp[3], lookup);
        ok = ok && (cmp[2] === "==" ? eq : !eq);
      } else ok = ok && value(term, lookup) !== "";
    }
  }
  return ok && (status || !failed);
}

/** Runs the steps of `action` (parsed and validated) as the runner would. */
export async function runComposite(
  action: CompositeActionT,
  opts: CompositeOptions,
): Promise<CompositeRun> {
  const temp = join(opts.jobDir, "runner-temp");
  const files = join(opts.jobDir, "github-files");
  await Deno.mkdir(temp, { recursive: true });
  await Deno.mkdir(files, { recursive: true });
  const summaryFile = join(files, "step_summary.md");
  await Deno.writeTextFile(summaryFile, "");
  const inputs: Record<string, string> = {};
  for (const [k, i] of Object.entries(action.inputs ?? {})) {
    inputs[k] = opts.inputs[k] ?? (i.default === undefined ? "" : String(i.default));
  }
  const env: Record<string, string> = {
    ...opts.env,
    GITHUB_ACTIONS: "true",
    GITHUB_WORKSPACE: opts.workspace,
    GITHUB_ACTION_PATH: opts.actionPath,
    GITHUB_STEP_SUMMARY: summaryFile,
    GITHUB_JOB: "test-job",
    RUNNER_TEMP: temp,
  };
  const stepOutputs: Record<string, Record<string, string>> = {};
  const lookup: Lookup = (path) => {
    const [ctx, ...rest] = path.split(".");
    const key = rest.join(".");
    if (ctx === "inputs") return inputs[key] ?? "";
    if (ctx === "env") return env[key] ?? "";
    if (ctx === "github" && key === "workspace") return opts.workspace;
    if (ctx === "github" && key === "action_path") return opts.actionPath;
    if (ctx === "runner" && key === "temp") return temp;
    if (ctx === "steps" && rest[1] === "outputs") return stepOutputs[rest[0]]?.[rest[2]] ?? "";
    throw new Error(`unsupported context: ${path}`);
  };
  const runs: StepRun[] = [];
  let failed = false;
  for (const [n, step] of action.runs.steps.entries()) {
    const name = step.name ?? `step ${n + 1}`;
    const base: StepRun = {
      name,
      id: step.id,
      kind: "run" in step ? "run" : "uses",
      ran: false,
      outputs: {},
    };
    runs.push(base);
    if (!condition(step.if, lookup, failed)) continue;
    if (!("run" in step)) {
      base.uses = step.uses;
      base.with = Object.fromEntries(
        Object.entries(step.with ?? {}).map(([k, v]) => [k, substitute(String(v), lookup)]),
      );
      base.ran = true;
      continue;
    }
    if (step.shell !== "bash") throw new Error(`${name}: only shell: bash is run here`);
    const stepEnv: Record<string, string> = { ...env };
    for (const [k, v] of Object.entries(step.env ?? {})) stepEnv[k] = substitute(String(v), lookup);
    for (const f of ["GITHUB_OUTPUT", "GITHUB_ENV", "GITHUB_PATH"]) {
      stepEnv[f] = join(files, `${f.toLowerCase()}_${n}`);
      await Deno.writeTextFile(stepEnv[f], "");
    }
    const script = join(files, `step_${n}.sh`);
    await Deno.writeTextFile(script, substitute(step.run, lookup));
    const cwd = step["working-directory"]
      ? substitute(step["working-directory"], lookup)
      : opts.workspace;
    const out = await new Deno.Command("bash", {
      args: ["--noprofile", "--norc", "-eo", "pipefail", script],
      cwd,
      env: stepEnv,
      clearEnv: true,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).output();
    base.ran = true;
    base.code = out.code;
    base.stdout = new TextDecoder().decode(out.stdout);
    base.stderr = new TextDecoder().decode(out.stderr);
    base.outputs = parseCommandFile(await Deno.readTextFile(stepEnv.GITHUB_OUTPUT));
    if (step.id) stepOutputs[step.id] = base.outputs;
    Object.assign(env, parseCommandFile(await Deno.readTextFile(stepEnv.GITHUB_ENV)));
    const paths = (await Deno.readTextFile(stepEnv.GITHUB_PATH)).split("\n").filter(Boolean);
    if (paths.length) env.PATH = [...paths.reverse(), env.PATH].join(":");
    if (out.code !== 0) failed = true;
  }
  const outputs: Record<string, string> = {};
  for (const [k, o] of Object.entries(action.outputs ?? {})) {
    outputs[k] = substitute(o.value, lookup);
  }
  return { steps: runs, outputs, summary: await Deno.readTextFile(summaryFile), success: !failed };
}
