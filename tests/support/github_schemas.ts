/**
 * Test support: zod schemas of the YAML this repository ships for other engines to run —
 * GitHub's action metadata (`action.yml`, composite), GitHub workflows (the examples of
 * docs/ci.md and docs/fleet.md) and a Kubernetes `batch/v1` Job (docs/fleet.md). Written from
 * the public references (GitHub "Metadata syntax for GitHub Actions" and "Workflow syntax for
 * GitHub Actions"; Kubernetes "Jobs" and "Pod failure policy"), narrowed to what those files
 * use: unknown keys are refused, so a misspelt key fails the test as GitHub or the API server
 * would refuse it.
 *
 * @module
 */
import { z } from "zod";

const str = z.string();
/** A value GitHub reads as a string (YAML may give a number or a boolean). */
const scalar = z.union([z.string(), z.number(), z.boolean()]);
const env = z.record(z.string(), scalar);
const stepId = z.string().regex(/^[A-Za-z_][A-Za-z0-9_-]*$/, "an id starts with a letter or _");

/** An input of an action (`inputs.<input_id>`). */
const ActionInput = z.object({
  description: str,
  required: z.boolean().optional(),
  default: scalar.optional(),
  deprecationMessage: str.optional(),
}).strict();

/** A step of a composite action: `run` (with its `shell`) or `uses`. */
const CompositeStep = z.union([
  z.object({
    run: str,
    shell: str,
    name: str.optional(),
    id: stepId.optional(),
    if: str.optional(),
    env: env.optional(),
    "working-directory": str.optional(),
    "continue-on-error": z.union([z.boolean(), str]).optional(),
  }).strict(),
  z.object({
    uses: str.regex(/^(\.\/|docker:\/\/|[\w.-]+\/[\w./-]+@[\w.-]+$)/, "owner/repo@ref, ./path"),
    with: z.record(z.string(), scalar).optional(),
    name: str.optional(),
    id: stepId.optional(),
    if: str.optional(),
    env: env.optional(),
    "continue-on-error": z.union([z.boolean(), str]).optional(),
  }).strict(),
]);

/** `action.yml` of a composite action. */
export const CompositeAction = z.object({
  name: str.min(1),
  description: str.min(1),
  author: str.optional(),
  inputs: z.record(z.string().regex(/^[A-Za-z_][A-Za-z0-9_-]*$/), ActionInput).optional(),
  outputs: z.record(
    z.string().regex(/^[A-Za-z_][A-Za-z0-9_-]*$/),
    z.object({ description: str.optional(), value: str }).strict(),
  ).optional(),
  runs: z.object({ using: z.literal("composite"), steps: z.array(CompositeStep).min(1) })
    .strict(),
  branding: z.object({ icon: str.optional(), color: str.optional() }).strict().optional(),
}).strict();
/** A parsed composite `action.yml`. */
export type CompositeActionT = z.infer<typeof CompositeAction>;

/** A step of a workflow job. */
const WorkflowStep = z.object({
  id: stepId.optional(),
  name: str.optional(),
  if: z.union([str, z.boolean()]).optional(),
  uses: str.optional(),
  run: str.optional(),
  shell: str.optional(),
  with: z.record(z.string(), scalar).optional(),
  env: env.optional(),
  "working-directory": str.optional(),
  "continue-on-error": z.union([z.boolean(), str]).optional(),
  "timeout-minutes": z.union([z.number(), str]).optional(),
}).strict().refine((s) => (s.uses === undefined) !== (s.run === undefined), {
  message: "a step has exactly one of uses and run",
});

const WorkflowJob = z.object({
  name: str.optional(),
  "runs-on": z.union([str, z.array(str)]),
  needs: z.union([str, z.array(str)]).optional(),
  if: z.union([str, z.boolean()]).optional(),
  permissions: z.union([str, z.record(z.string(), str)]).optional(),
  environment: z.union([str, z.object({ name: str, url: str.optional() })]).optional(),
  strategy: z.object({
    matrix: z.union([z.record(z.string(), z.unknown()), str]),
    "fail-fast": z.union([z.boolean(), str]).optional(),
    "max-parallel": z.union([z.number(), str]).optional(),
  }).strict().optional(),
  env: env.optional(),
  "timeout-minutes": z.union([z.number(), str]).optional(),
  "continue-on-error": z.union([z.boolean(), str]).optional(),
  concurrency: z.unknown().optional(),
  outputs: z.record(z.string(), str).optional(),
  steps: z.array(WorkflowStep).min(1),
}).strict();

/** A GitHub workflow file. */
export const Workflow = z.object({
  name: str.optional(),
  "run-name": str.optional(),
  on: z.union([str, z.array(str), z.record(z.string(), z.unknown())]),
  permissions: z.union([str, z.record(z.string(), str)]).optional(),
  env: env.optional(),
  concurrency: z.unknown().optional(),
  jobs: z.record(z.string().regex(/^[A-Za-z_][A-Za-z0-9_-]*$/), WorkflowJob),
}).strict();
/** A parsed workflow. */
export type WorkflowT = z.infer<typeof Workflow>;

const dnsName = str.regex(/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/, "a DNS-1123 name").max(63);
const Metadata = z.object({
  name: dnsName,
  namespace: dnsName.optional(),
  labels: z.record(z.string(), str).optional(),
  annotations: z.record(z.string(), str).optional(),
}).strict();

const EnvVar = z.object({
  name: str.regex(/^[A-Za-z_][A-Za-z0-9_.-]*$/),
  value: str.optional(),
  valueFrom: z.object({
    secretKeyRef: z.object({ name: str, key: str, optional: z.boolean().optional() }).strict()
      .optional(),
    configMapKeyRef: z.object({ name: str, key: str }).strict().optional(),
    fieldRef: z.object({ fieldPath: str }).strict().optional(),
  }).strict().optional(),
}).strict().refine((e) => !(e.value !== undefined && e.valueFrom !== undefined), {
  message: "an env var has value or valueFrom, not both",
});

const Container = z.object({
  name: dnsName,
  image: str.min(1),
  command: z.array(str).optional(),
  args: z.array(str).optional(),
  workingDir: str.optional(),
  env: z.array(EnvVar).optional(),
  volumeMounts: z.array(
    z.object({
      name: str,
      mountPath: str.startsWith("/"),
      readOnly: z.boolean().optional(),
      subPath: str.optional(),
    }).strict(),
  ).optional(),
  resources: z.record(z.string(), z.record(z.string(), scalar)).optional(),
  securityContext: z.record(z.string(), z.unknown()).optional(),
}).strict();

const Volume = z.object({
  name: dnsName,
  configMap: z.object({ name: str }).strict().optional(),
  secret: z.object({ secretName: str }).strict().optional(),
  emptyDir: z.object({}).strict().optional(),
  persistentVolumeClaim: z.object({ claimName: str, readOnly: z.boolean().optional() }).strict()
    .optional(),
}).strict().refine(
  (v) => [v.configMap, v.secret, v.emptyDir, v.persistentVolumeClaim].filter(Boolean).length === 1,
  { message: "a volume has exactly one source" },
);

const PodFailureRule = z.object({
  action: z.enum(["FailJob", "FailIndex", "Ignore", "Count"]),
  onExitCodes: z.object({
    containerName: str.optional(),
    operator: z.enum(["In", "NotIn"]),
    values: z.array(z.number().int().min(0).max(255)).min(1).max(255),
  }).strict().optional(),
  onPodConditions: z.array(z.object({ type: str, status: str.optional() }).strict()).optional(),
}).strict().refine((r) => (r.onExitCodes === undefined) !== (r.onPodConditions === undefined), {
  message: "a rule has exactly one of onExitCodes and onPodConditions",
});

/** A Kubernetes `batch/v1` Job, with the API server's cross-field rules for Indexed Jobs. */
export const KubernetesJob = z.object({
  apiVersion: z.literal("batch/v1"),
  kind: z.literal("Job"),
  metadata: Metadata,
  spec: z.object({
    completions: z.number().int().min(1).optional(),
    parallelism: z.number().int().min(0).optional(),
    completionMode: z.enum(["NonIndexed", "Indexed"]).optional(),
    backoffLimit: z.number().int().min(0).optional(),
    backoffLimitPerIndex: z.number().int().min(0).optional(),
    maxFailedIndexes: z.number().int().min(0).optional(),
    activeDeadlineSeconds: z.number().int().min(1).optional(),
    ttlSecondsAfterFinished: z.number().int().min(0).optional(),
    podFailurePolicy: z.object({ rules: z.array(PodFailureRule).max(20) }).strict().optional(),
    template: z.object({
      metadata: z.object({ labels: z.record(z.string(), str).optional() }).strict().optional(),
      spec: z.object({
        restartPolicy: z.enum(["Never", "OnFailure"]),
        containers: z.array(Container).min(1),
        initContainers: z.array(Container).optional(),
        volumes: z.array(Volume).optional(),
        serviceAccountName: str.optional(),
        securityContext: z.record(z.string(), z.unknown()).optional(),
      }).strict(),
    }).strict(),
  }).strict(),
}).strict().superRefine((job, ctx) => {
  const s = job.spec;
  const pod = s.template.spec;
  const fail = (message: string) => ctx.addIssue({ code: "custom", message });
  if (s.completionMode === "Indexed" && s.completions === undefined) {
    fail("an Indexed Job needs completions");
  }
  if (s.backoffLimitPerIndex !== undefined && s.completionMode !== "Indexed") {
    fail("backoffLimitPerIndex needs completionMode: Indexed");
  }
  if (s.podFailurePolicy && pod.restartPolicy !== "Never") {
    fail("podFailurePolicy needs restartPolicy: Never");
  }
  const names = new Set(pod.containers.map((c) => c.name));
  const volumes = new Set((pod.volumes ?? []).map((v) => v.name));
  for (const c of [...pod.containers, ...(pod.initContainers ?? [])]) {
    for (const m of c.volumeMounts ?? []) {
      if (!volumes.has(m.name)) fail(`container ${c.name} mounts an unknown volume ${m.name}`);
    }
  }
  for (const r of s.podFailurePolicy?.rules ?? []) {
    const x = r.onExitCodes;
    if (r.action === "FailIndex" && s.backoffLimitPerIndex === undefined) {
      fail("FailIndex needs backoffLimitPerIndex");
    }
    if (x?.containerName && !names.has(x.containerName)) {
      fail(`onExitCodes names an unknown container ${x.containerName}`);
    }
    if (x?.operator === "In" && x.values.includes(0)) fail("operator In may not list exit code 0");
  }
});
/** A parsed Job. */
export type KubernetesJobT = z.infer<typeof KubernetesJob>;

/** Any other Kubernetes object of a manifest (a ConfigMap, a PersistentVolumeClaim…). */
export const KubernetesObject = z.object({
  apiVersion: str.min(1),
  kind: str.min(1),
  metadata: Metadata,
}).passthrough();

/** The fenced code blocks of a markdown text whose info string starts with `lang`. */
export function fencedBlocks(markdown: string, lang: string): string[] {
  const out: string[] = [];
  const re = /^```([^\n]*)\n([\s\S]*?)^```$/gm;
  for (const m of markdown.matchAll(re)) {
    if (m[1].trim().split(/\s+/)[0] === lang) out.push(m[2]);
  }
  return out;
}

/** A zod result as one readable line (for assertion messages). */
export function issues(r: { success: boolean; error?: z.ZodError }): string {
  return r.success
    ? ""
    : (r.error?.issues ?? []).map((i) => `${i.path.join(".") || "(root)"}: ${i.message}`).join(
      "; ",
    );
}
