/**
 * The YAML of docs/ci.md and docs/fleet.md is what GitHub and Kubernetes accept (issue 28
 * items 2 and 3): every `yaml` block is extracted from the markdown and checked — workflows
 * against the workflow schema, with each use of this repository's action given only inputs
 * action.yml declares (and its required ones), secrets only in `env:`; the Kubernetes manifest
 * against the `batch/v1` Job schema (Indexed, its pod failure policy acting on the exit codes
 * fleet.md documents); fleet.md's exit-code table names every code hs sets; the README links
 * both pages.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { parse, parseAllDocuments } from "yaml";
import {
  CompositeAction,
  fencedBlocks,
  issues,
  KubernetesJob,
  KubernetesObject,
  Workflow,
  type WorkflowT,
} from "../support/github_schemas.ts";
import { REPO } from "../support/workspace.ts";

const read = (p: string) => Deno.readTextFile(join(REPO, p));

/** The workflows of a docs page, validated. */
async function workflowsOf(page: string): Promise<WorkflowT[]> {
  const out: WorkflowT[] = [];
  for (const block of fencedBlocks(await read(page), "yaml")) {
    for (const d of parseAllDocuments(block)) {
      assert.deepEqual(d.errors, [], page);
      const doc = d.toJS();
      if (!doc || typeof doc !== "object" || !("jobs" in doc)) continue;
      const r = Workflow.safeParse(doc);
      assert.ok(r.success, `${page}: ${issues(r)}`);
      out.push(r.data);
    }
  }
  return out;
}

/** Checks every step that uses this repository's action against action.yml's inputs. */
async function checkActionUses(wf: WorkflowT, page: string): Promise<number> {
  const action = CompositeAction.parse(parse(await read("action.yml")));
  const inputs = action.inputs ?? {};
  let uses = 0;
  for (const [id, job] of Object.entries(wf.jobs)) {
    for (const step of job.steps) {
      if (!step.uses?.startsWith("OWNER/harness@")) continue;
      uses++;
      for (const k of Object.keys(step.with ?? {})) {
        assert.ok(inputs[k], `${page} ${id}: input ${k} is declared in action.yml`);
      }
      for (const [k, i] of Object.entries(inputs)) {
        if (i.required) assert.ok(step.with?.[k] !== undefined, `${page} ${id}: ${k} given`);
      }
      for (const v of Object.values(step.with ?? {})) {
        assert.ok(!String(v).includes("secrets."), `${page} ${id}: a secret in with:`);
      }
      assert.ok(Object.values(step.env ?? {}).some((v) => String(v).includes("secrets.")));
    }
    for (const step of job.steps) {
      // an expression spliced into a script: values go through env
      assert.ok(!step.run?.includes("${{"), `${page} ${id}: no expression in run:`);
    }
  }
  return uses;
}

Deno.test("docs/ci.md: the pull-request review workflow is valid and uses the action as declared", async () => {
  const [wf, ...rest] = await workflowsOf("docs/ci.md");
  assert.ok(wf, "a workflow block");
  assert.equal(rest.length, 0);
  assert.ok(typeof wf.on === "object" && "pull_request" in (wf.on as object));
  assert.equal(await checkActionUses(wf, "docs/ci.md"), 1);
  const step = wf.jobs.review.steps.find((s) => s.uses?.startsWith("OWNER/harness@"))!;
  assert.equal(step.with?.floor, "read-only");
  const post = wf.jobs.review.steps.find((s) => s.run?.includes("gh pr comment"))!;
  assert.equal(post.env?.REVIEW, "${{ steps.hs.outputs.result }}");
});

Deno.test("docs/fleet.md: the matrix workflow runs the action per task and collects every session", async () => {
  const [wf, ...rest] = await workflowsOf("docs/fleet.md");
  assert.ok(wf, "a workflow block");
  assert.equal(rest.length, 0);
  assert.equal(await checkActionUses(wf, "docs/fleet.md"), 1);
  const agents = wf.jobs.agents;
  const matrix = agents.strategy?.matrix as { task: { id: string; prompt: string }[] };
  assert.ok(matrix.task.length >= 2);
  assert.equal(new Set(matrix.task.map((t) => t.id)).size, matrix.task.length);
  const hs = agents.steps.find((s) => s.uses?.startsWith("OWNER/harness@"))!;
  assert.match(String(hs.with?.["artifact-name"]), /\$\{\{ matrix\.task\.id \}\}/);
  const collect = wf.jobs.collect;
  assert.equal(collect.needs, "agents");
  assert.equal(collect.if, "always()");
  const download = collect.steps.find((s) => s.uses?.startsWith("actions/download-artifact@"))!;
  assert.equal(download.with?.pattern, "hs-*");
  assert.ok(collect.steps.some((s) => s.run?.includes(".hs-session.json")));
});

Deno.test("docs/fleet.md: the Kubernetes manifest is an Indexed batch/v1 Job acting on hs's exit codes", async () => {
  const page = await read("docs/fleet.md");
  const blocks = fencedBlocks(page, "yaml").filter((b) => /^apiVersion:/m.test(b));
  assert.equal(blocks.length, 1);
  const docs = parseAllDocuments(blocks[0]).map((d) => {
    assert.deepEqual(d.errors, []);
    return d.toJS();
  });
  const jobs = docs.filter((d) => d.kind === "Job");
  assert.equal(jobs.length, 1);
  for (const d of docs.filter((d) => d.kind !== "Job")) {
    const r = KubernetesObject.safeParse(d);
    assert.ok(r.success, issues(r));
  }
  const r = KubernetesJob.safeParse(jobs[0]);
  assert.ok(r.success, issues(r));
  const job = r.data;
  assert.equal(job.spec.completionMode, "Indexed");
  const pod = job.spec.template.spec;
  const hs = pod.containers.find((c) => c.name === "hs")!;
  const script = [...(hs.command ?? []), ...(hs.args ?? [])].join(" ");
  assert.match(script, /hs agent --events/);
  assert.match(script, /\$JOB_COMPLETION_INDEX/);
  assert.match(script, /hs session export -o /);
  // the manifest's own objects: the ConfigMap has a prompt per index, the claim exists
  const prompts = docs.find((d) => d.kind === "ConfigMap");
  for (let i = 0; i < job.spec.completions!; i++) {
    assert.ok(prompts.data[`prompt-${i}`], `prompt-${i}`);
  }
  const claims = docs.filter((d) => d.kind === "PersistentVolumeClaim").map((d) => d.metadata.name);
  for (const v of pod.volumes ?? []) {
    if (v.persistentVolumeClaim) assert.ok(claims.includes(v.persistentVolumeClaim.claimName));
    if (v.configMap) assert.equal(v.configMap.name, prompts.metadata.name);
  }
  // keys come from a Secret, never a literal value
  const key = hs.env?.find((e) => e.name === "ANTHROPIC_API_KEY");
  assert.ok(key?.valueFrom?.secretKeyRef && key.value === undefined);
  // the pod failure policy: usage errors fail the Job, busy sessions are retried
  const rules = job.spec.podFailurePolicy!.rules;
  const actionOf = (code: number) =>
    rules.find((x) => x.onExitCodes?.values.includes(code))?.action;
  assert.equal(actionOf(2), "FailJob");
  assert.equal(actionOf(130), "FailIndex");
  assert.equal(actionOf(75), "Count");
  assert.ok(
    rules.some((x) => x.action === "Ignore" && x.onPodConditions?.[0].type === "DisruptionTarget"),
  );
});

Deno.test("docs/fleet.md's event table names every type of the --events stream", async () => {
  const page = await read("docs/fleet.md");
  const section = page.split("## The job's log")[1].split("\n## ")[0];
  const documented = new Set([...section.matchAll(/`([a-z_]+)`/g)].map((m) => m[1]));
  const events = await read("core/contracts/events.ts");
  const types = [...events.matchAll(/\btype: "([a-z_]+)"/g)].map((m) => m[1]);
  assert.ok(types.length > 15, types.join());
  for (const t of types) assert.ok(documented.has(t), `event ${t} is in fleet.md's table`);
});

Deno.test("docs/fleet.md's exit-code table names every code hs sets; the README links both pages", async () => {
  const page = await read("docs/fleet.md");
  const section = page.split("## Exit codes")[1].split("\n## ")[0];
  const codes = [...section.matchAll(/^\| `(\d+)` \|/gm)].map((m) => Number(m[1]));
  // the codes of hs's sources: HarnessError exit codes, returned and Deno.exit codes
  const set = new Set<number>();
  for (const dir of ["cli", "core"]) {
    for await (const f of walkTs(join(REPO, dir))) {
      const text = await Deno.readTextFile(f);
      for (
        const m of text.matchAll(/SESSION_BUSY_EXIT = (\d+)|Deno\.exit\((\d+)\)|return (130|75);/g)
      ) {
        set.add(Number(m[1] ?? m[2] ?? m[3]));
      }
      for (const m of text.matchAll(/new HarnessError\([^;]*?,\s*(\d+),?\s*\)/gs)) {
        set.add(Number(m[1]));
      }
    }
  }
  set.add(0).add(1);
  for (const c of set) assert.ok(codes.includes(c), `exit code ${c} is in fleet.md's table`);
  const readme = await read("README.md");
  assert.match(readme, /\]\(docs\/ci\.md\)/);
  assert.match(readme, /\]\(docs\/fleet\.md\)/);
});

async function* walkTs(dir: string): AsyncGenerator<string> {
  for await (const e of Deno.readDir(dir)) {
    const p = join(dir, e.name);
    if (e.isDirectory) yield* walkTs(p);
    else if (e.name.endsWith(".ts")) yield p;
  }
}
