/**
 * The GitHub Action (`action.yml`, issue 28 item 2): its metadata is a valid composite action
 * (schema from GitHub's metadata syntax) whose scripts get every input through `env:` only;
 * run as the runner runs it — its `run:` steps in a GITHUB_* environment made in a temp
 * directory, against a loopback provider given as `.conf` text, the key only in the caller's
 * `env:` — it writes the answer and a usage table to the job summary, sets `result` and
 * `session`, logs `--events`, and hands `actions/upload-artifact` a folder holding the
 * session, its events and an archive `hs session import` takes; a failed turn still writes
 * the summary and uploads, then fails the action with hs's exit code.
 */
import assert from "node:assert/strict";
import { dirname, join } from "node:path";
import { parse } from "yaml";
import { startScriptedServer } from "../../plugins/scripted/mod.ts";
import type { ScriptedTurn } from "../../plugins/scripted/mod.ts";
import { type CompositeRun, runComposite } from "../support/composite_action.ts";
import { CompositeAction, type CompositeActionT, issues } from "../support/github_schemas.ts";
import { loopbackConf, makeWorkspace, REPO, runHs, writeFile } from "../support/workspace.ts";

const KEY = "sk-action-test-0123456789abcdef";

async function loadAction(): Promise<CompositeActionT> {
  const raw = parse(await Deno.readTextFile(join(REPO, "action.yml")));
  const r = CompositeAction.safeParse(raw);
  assert.ok(r.success, issues(r));
  return r.data;
}

Deno.test("action.yml is a composite action; inputs reach its scripts through env only", async () => {
  const action = await loadAction();
  assert.equal(action.inputs?.prompt.required, true);
  for (const k of ["provider", "floor", "max-turns"]) assert.ok(action.inputs?.[k], k);
  for (const k of ["result", "session"]) assert.ok(action.outputs?.[k], k);
  const text = await Deno.readTextFile(join(REPO, "action.yml"));
  for (const m of text.matchAll(/\$\{\{\s*inputs\.([\w-]+)\s*\}\}/g)) {
    assert.ok(action.inputs?.[m[1]], `inputs.${m[1]} is declared`);
  }
  const ids: string[] = [];
  for (const step of action.runs.steps) {
    for (const m of JSON.stringify(step).matchAll(/steps\.([\w-]+)\.outputs/g)) {
      assert.ok(ids.includes(m[1]), `${step.name}: steps.${m[1]} runs before it`);
    }
    if ("run" in step) {
      // an expression spliced into a script is a script injection: values go through env
      assert.ok(!step.run.includes("${{"), `${step.name}: no expression in run`);
      for (const m of step.run.matchAll(/\$GITHUB_ACTION_PATH\/([\w/.-]+)/g)) {
        await Deno.stat(join(REPO, m[1])); // the script it runs exists
      }
    }
    if (step.id) ids.push(step.id);
  }
  const upload = action.runs.steps.find((s) => "uses" in s);
  assert.ok(upload && "uses" in upload);
  assert.match(upload.uses, /^actions\/upload-artifact@v4$/);
  assert.equal(upload.with?.["include-hidden-files"], true, "a session's .stream is hidden");
  assert.ok(
    !/secret|token|key/i.test(Object.keys(action.inputs ?? {}).join(" ")),
    "no secret input",
  );
});

/** The environment of the job: a runner's PATH (with this deno), no HARNESS_HOME. */
function jobEnv(env: Record<string, string>, extra: Record<string, string>) {
  const { HARNESS_HOME: _home, ...rest } = env;
  return { ...rest, PATH: `${dirname(Deno.execPath())}:${env.PATH}`, ...extra };
}

async function runAction(
  script: ScriptedTurn[],
  inputs: (url: string) => Record<string, string>,
  opts: { keepHome?: boolean; homeConf?: boolean } = {},
) {
  const w = await makeWorkspace();
  const server = await startScriptedServer(script);
  if (opts.homeConf) {
    await writeFile(join(w.home, "providers/loop.conf"), loopbackConf(server.url));
  }
  const env = opts.keepHome ? w.env : jobEnv(w.env, {});
  const run: CompositeRun = await runComposite(await loadAction(), {
    actionPath: REPO,
    jobDir: join(w.root, "job"),
    workspace: w.ws,
    inputs: inputs(server.url),
    env: { ...env, PATH: `${dirname(Deno.execPath())}:${env.PATH}`, HS_TEST_KEY: KEY },
  });
  return { w, server, run, close: async () => (await server.close(), await w.cleanup()) };
}

Deno.test("the action runs hs on a loopback provider: summary, outputs, events log, artifact", async () => {
  const prompt = "-- review $(touch pwned) `touch pwned2` 'this' \"diff\"";
  const t = await runAction(
    [{ text: "the review: looks fine", usage: { input_tokens: 120, output_tokens: 30 } }],
    (url) => ({
      prompt,
      provider: loopbackConf(url, "anthropic", "auth_env=HS_TEST_KEY\n"),
      floor: "read-only",
      "max-turns": "3",
      "input-price": "3",
      "output-price": "15",
    }),
  );
  try {
    const { run, server, w } = t;
    const [setup, hs, summary, upload, fail] = run.steps;
    assert.equal(setup.code, 0, setup.stderr);
    assert.match(setup.stdout ?? "", /^hs: using deno 2\.9\.6 from /m);
    assert.equal(hs.code, 0, hs.stderr);
    assert.equal(summary.code, 0, summary.stderr);
    assert.ok(run.success);
    assert.equal(fail.ran, false, "the last step runs only when hs failed");
    // what reached the model: the prompt as it was written, nothing of it run by a shell
    assert.equal(server.requests.length, 1);
    assert.ok(
      JSON.stringify(server.requests[0].body).includes(JSON.stringify(prompt).slice(1, -1)),
    );
    assert.equal(server.requests[0].headers["x-api-key"], KEY);
    for (const f of ["pwned", "pwned2"]) {
      await assert.rejects(() => Deno.stat(join(w.ws, f)), Deno.errors.NotFound);
    }
    // the job log is the --events stream: one JSON event a line
    const events = (hs.stdout ?? "").split("\n").filter((l) => l.startsWith("{")).map((l) =>
      JSON.parse(l)
    );
    assert.ok(events.some((e) => e.type === "session"));
    assert.ok(events.some((e) => e.type === "turn_end" && e.output === "the review: looks fine"));
    // outputs
    assert.equal(run.outputs.result, "the review: looks fine");
    assert.match(run.outputs.session, /^\d{8}-\d{6}-\d+/);
    assert.equal(run.outputs["exit-code"], "0");
    const conf = await Deno.readTextFile(join(run.outputs["session-dir"], "session.conf"));
    assert.match(conf, new RegExp(`^id=${run.outputs.session}$`, "m"));
    // the summary: the answer, the usage table with the cost at the given prices
    assert.match(run.summary, /^## hs agent ✓$/m);
    assert.match(run.summary, /provider `hs-action` · model `scripted-1` · exit code 0/);
    assert.match(run.summary, /### Answer\n\nthe review: looks fine\n/);
    assert.match(run.summary, /^\| 1 \| 120 \| 30 \| 0 \| 0 \| 0 \| 0\.0008 \|$/m);
    assert.match(run.summary, new RegExp(`hs session import ${run.outputs.session}\\.hs-session`));
    // the artifact: what upload-artifact is handed
    assert.equal(upload.ran, true);
    assert.equal(upload.uses, "actions/upload-artifact@v4");
    const art = upload.with!.path;
    assert.equal(upload.with!.name, `hs-test-job-${run.outputs.session}`);
    assert.equal(run.outputs["session-dir"], join(art, "sessions", run.outputs.session));
    assert.equal(run.outputs.archive, join(art, `${run.outputs.session}.hs-session.json`));
    const names = [...Deno.readDirSync(art)].map((e) => e.name).sort();
    assert.deepEqual(names, [`${run.outputs.session}.hs-session.json`, "events.jsonl", "sessions"]);
    // the secret reached the provider and nothing else
    const everything = [
      run.summary,
      JSON.stringify(run.outputs),
      ...run.steps.map((s) => `${s.stdout}${s.stderr}`),
      await Deno.readTextFile(join(art, "events.jsonl")),
      atobAll(await Deno.readTextFile(run.outputs.archive)),
    ].join("\n");
    assert.ok(!everything.includes(KEY), "the key leaked");
    // the archive imports on another machine
    const other = await makeWorkspace();
    try {
      const imp = await runHs(["session", "import", run.outputs.archive], {
        cwd: other.ws,
        env: other.env,
      });
      assert.equal(imp.code, 0, imp.stderr);
      assert.equal(imp.stdout, `${run.outputs.session}\n`);
    } finally {
      await other.cleanup();
    }
  } finally {
    await t.close();
  }
});

/** The archive's text with every file's content decoded. */
function atobAll(text: string): string {
  const a = JSON.parse(text) as { files: { data: string }[] };
  return text + a.files.map((f) => atob(f.data)).join("\n");
}

Deno.test("a failed turn: the summary says so, the session is uploaded, the action fails with hs's code", async () => {
  const t = await runAction(
    [{ fault: { kind: "status", status: 400 } }],
    () => ({ prompt: "review it", provider: "loop" }),
    { keepHome: true, homeConf: true },
  );
  try {
    const { run } = t;
    const [, hs, summary, upload, fail] = run.steps;
    assert.equal(hs.code, 0, "the run step records the code and lets the summary run");
    assert.equal(hs.outputs["exit-code"], "1");
    assert.equal(summary.code, 0, summary.stderr);
    assert.match(run.summary, /^## hs agent ✗$/m);
    assert.match(run.summary, /exit code 1/);
    assert.match(run.summary, /^### Error\n+- error: loop: HTTP 400: .*scripted status 400\n+###/m);
    assert.equal(upload.ran, true);
    assert.equal(fail.ran, true);
    assert.equal(fail.code, 1);
    assert.match(fail.stdout ?? "", /::error::hs exited with code 1/);
    assert.equal(run.success, false);
    assert.equal(run.outputs.result, "");
    assert.equal(run.outputs["exit-code"], "1");
  } finally {
    await t.close();
  }
});

Deno.test("the Deno step installs deno 2.9.6 from npm when the deno on PATH is another", async () => {
  const root = await Deno.makeTempDir({ prefix: "hs-setup-deno-" });
  try {
    const bin = join(root, "bin");
    // a deno of another version, and an npm that installs a deno 2.9.6 where it is told
    await writeFile(join(bin, "deno"), "#!/bin/sh\necho 'deno 2.1.0 (stable)'\n", 0o755);
    await writeFile(
      join(bin, "npm"),
      `#!/bin/sh
echo "$@" > "${root}/npm-args"
prefix="$3"
mkdir -p "$prefix/node_modules/.bin"
printf '#!/bin/sh\\necho "deno 2.9.6 (stable)"\\n' > "$prefix/node_modules/.bin/deno"
chmod +x "$prefix/node_modules/.bin/deno"
`,
      0o755,
    );
    const action = await loadAction();
    const step = action.runs.steps[0];
    assert.ok("run" in step);
    const githubPath = join(root, "github_path");
    await Deno.writeTextFile(githubPath, "");
    const out = await new Deno.Command("bash", {
      args: ["--noprofile", "--norc", "-eo", "pipefail", "-c", step.run],
      env: {
        PATH: `${bin}:/usr/bin:/bin`,
        GITHUB_ACTION_PATH: REPO,
        GITHUB_PATH: githubPath,
        RUNNER_TEMP: root,
        ...Object.fromEntries(Object.entries(step.env ?? {}).map(([k, v]) => [k, String(v)])),
      },
      clearEnv: true,
    }).output();
    const text = new TextDecoder().decode(out.stdout);
    assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
    assert.match(text, /deno 2\.1\.0 is on PATH; installing deno 2\.9\.6 from npm/);
    assert.match(
      await Deno.readTextFile(join(root, "npm-args")),
      /^install --prefix \S+ .*deno@2\.9\.6$/m,
    );
    assert.equal(
      await Deno.readTextFile(githubPath),
      `${join(root, "hs-deno-2.9.6", "node_modules/.bin")}\n`,
    );
    assert.match(text, /deno 2\.9\.6 \(stable\)/);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
