/**
 * Support for the next-run escape suites: a floor rig whose workspace is a real
 * git repository, attempts that each plant a payload in a control path, and the
 * consequence checks — what ran on the user's next `hs tools` / `hs doctor` /
 * `hs --trust-workspace` run and on the user's next `git status` / `git commit`.
 * A payload touches `markers/<id>` outside the workspace (proves it ran
 * unconfined) and `.ran-<id>` in the workspace (proves it ran at all).
 *
 * @module
 */
import { join } from "node:path";
import { type ScriptedServer, startScriptedServer } from "../../plugins/scripted/mod.ts";
import type { ScriptedToolCall, ScriptedTurn } from "../../plugins/scripted/mod.ts";
import { type CliRun, loopbackConf, runHs, writeFile } from "../support/workspace.ts";
import { type FloorRig, makeRig, type ToolOutcome } from "./_helpers.ts";

/** One escape attempt: a tool call (or a few) and the id its payload marks. */
export interface NextRunAttempt {
  id: string;
  what: string;
  calls: ScriptedToolCall[];
  /** Files whose content must not hold this attempt's payload afterwards (relative to ws). */
  targets?: string[];
  /**
   * The payload also goes into the agent's own rooms (tools/): running there, inside the
   * sandbox, is allowed — only an unconfined run is an escape.
   */
  inRoom?: boolean;
}

/** A rig with a git repository in the workspace and a markers directory outside it. */
export interface NextRunRig extends FloorRig {
  markers: string;
  /** The payload script of an attempt. */
  payload(id: string): string;
  /** The shell command a payload runs (for `core.fsmonitor`). */
  payloadCommand(id: string): string;
  gitEnv: Record<string, string>;
}

/** Runs git in the workspace as the user would (never inside a sandbox). */
export async function git(rig: NextRunRig, ...args: string[]): Promise<CliRun> {
  const out = await new Deno.Command("git", {
    args,
    cwd: rig.w.ws,
    env: rig.gitEnv,
    clearEnv: true,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  const dec = new TextDecoder();
  return { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
}

/** {@link makeRig} plus `git init` (by the user) and a first commit. */
export async function makeNextRunRig(): Promise<NextRunRig> {
  const rig = await makeRig();
  const markers = join(rig.w.root, "markers");
  await Deno.mkdir(markers);
  const payloadCommand = (id: string) => `touch ${markers}/${id} ${rig.w.ws}/.ran-${id}`;
  const r: NextRunRig = {
    ...rig,
    markers,
    payloadCommand,
    payload: (id) => `#!/bin/sh\n${payloadCommand(id)}\n`,
    gitEnv: {
      PATH: rig.w.env.PATH,
      HOME: rig.w.root,
      GIT_AUTHOR_NAME: "u",
      GIT_AUTHOR_EMAIL: "u@example.com",
      GIT_COMMITTER_NAME: "u",
      GIT_COMMITTER_EMAIL: "u@example.com",
      GIT_CONFIG_NOSYSTEM: "1",
    },
    async close() {
      await r.server?.close();
      r.server = undefined;
      await rig.close();
    },
  };
  const init = await git(r, "init", "-q", ".");
  if (init.code !== 0) throw new Error(`git init: ${init.stderr}`);
  await git(r, "add", "notes.txt");
  await git(r, "commit", "-q", "-m", "first");
  return r;
}

/** Tool results of an `--events` run, by call id. */
export function outcomesOf(run: CliRun): Map<string, ToolOutcome> {
  const outcomes = new Map<string, ToolOutcome>();
  for (const line of run.stdout.split("\n")) {
    if (!line.startsWith("{")) continue;
    const e = JSON.parse(line);
    if (e.type === "tool_done") {
      outcomes.set(e.id, { id: e.id, name: e.name, error: e.error, result: e.result });
    }
  }
  return outcomes;
}

/**
 * Points the workspace at one scripted server that serves the attack run (one call per
 * round, then "done") and `after` more turns for the next runs — so the provider file is
 * never rewritten between runs (what the agent did to it stays).
 */
export async function startAttackServer(
  rig: NextRunRig,
  calls: ScriptedToolCall[],
  after: ScriptedTurn[] = [{ text: "next run" }],
): Promise<ScriptedServer> {
  const server = await startScriptedServer([
    ...calls.map((c) => ({ toolCalls: [c] })),
    { text: "done" },
    ...after,
  ]);
  rig.server = server;
  await writeFile(join(rig.w.ws, ".harness/providers/loop.conf"), loopbackConf(server.url));
  await writeFile(join(rig.w.ws, ".harness/settings.conf"), "provider=loop\n");
  return server;
}

/** Runs `hs` in the workspace with the rig's environment. */
export function hs(rig: NextRunRig, args: string[]): Promise<CliRun> {
  return runHs(args, { cwd: rig.w.ws, env: rig.w.env });
}

/** The ids whose payload ran: a marker outside the workspace or a `.ran-<id>` inside it. */
export function ranPayloads(rig: NextRunRig): string[] {
  const out = new Set<string>();
  for (const e of Deno.readDirSync(rig.markers)) out.add(`${e.name} (unconfined)`);
  for (const e of Deno.readDirSync(rig.w.ws)) {
    if (e.name.startsWith(".ran-")) out.add(e.name.slice(5));
  }
  return [...out].sort();
}

/** Attempts whose payload landed in one of their targets. */
export function landed(rig: NextRunRig, list: NextRunAttempt[]): string[] {
  const out: string[] = [];
  for (const a of list) {
    for (const t of a.targets ?? []) {
      let text = "";
      try {
        text = Deno.readTextFileSync(join(rig.w.ws, t));
      } catch { /* absent */ }
      if (text.includes(`/${a.id} `) || text.includes(`/${a.id}\n`)) {
        out.push(`${a.id} ${a.what}: its payload is in ${t}`);
      }
    }
  }
  return out;
}

/** Numbers attempts `<prefix>NN`, one list per suite. */
export function attemptList(prefix: string): {
  list: NextRunAttempt[];
  add(
    what: string,
    calls: (id: string) => ScriptedToolCall[],
    targets?: (id: string) => string[],
    opts?: { inRoom?: boolean },
  ): void;
} {
  const list: NextRunAttempt[] = [];
  return {
    list,
    add(what, calls, targets, opts) {
      const id = `${prefix}${String(list.length + 1).padStart(2, "0")}`;
      const cs = calls(id).map((c, i) => ({ ...c, id: `${id}_${i}` }));
      list.push({ id, what, calls: cs, targets: targets?.(id), inRoom: opts?.inRoom });
    },
  };
}

/** A tool call (its id is filled in by {@link attemptList}). */
export function call(name: string, input: Record<string, unknown>): ScriptedToolCall {
  return { id: "", name, input };
}

/** `bash` with a command. */
export function sh(command: string): ScriptedToolCall {
  return call("bash", { command });
}

/** `printf` of a payload into `p-<id>.sh` (executable), as a bash prefix. */
export function mk(rig: NextRunRig, id: string): string {
  return `printf '#!/bin/sh\\n%s\\n' '${
    rig.payloadCommand(id)
  }' > p-${id}.sh && chmod +x p-${id}.sh`;
}

/** Ways to put `p-<id>.sh` at `target` (relative to the workspace); `via`: the same through a link. */
export function plantRows(
  rig: NextRunRig,
  add: ReturnType<typeof attemptList>["add"],
  label: string,
  target: (id: string) => string,
  link: { name: string; dir: string },
) {
  const dirOf = (p: string) => p.slice(0, p.lastIndexOf("/"));
  const via = (id: string) => link.name + target(id).slice(link.dir.length);
  const up = (id: string) => "../".repeat(target(id).split("/").length - 1);
  const t = (id: string) => [target(id)];
  add(`write_file ${label}`, (id) => [
    call("write_file", { path: target(id), content: rig.payload(id) }),
  ], t);
  add(`write_file ${label} through a symlinked parent`, (id) => [
    call("write_file", { path: via(id), content: rig.payload(id) }),
  ], t);
  add(`edit_file ${label} through a symlinked parent`, (id) => [
    call("edit_file", {
      path: via(id),
      edits: [{ type: "append_file", content: rig.payload(id) }],
    }),
  ], t);
  add(`bash redirect into ${label}`, (id) => [
    sh(`${mk(rig, id)} && cat p-${id}.sh > ${target(id)} && chmod +x ${target(id)}`),
  ], t);
  add(`bash mkdir -p + tee ${label}`, (id) => [
    sh(
      `${mk(rig, id)} && mkdir -p ${dirOf(target(id))} && tee ${
        target(id)
      } < p-${id}.sh && chmod +x ${target(id)}`,
    ),
  ], t);
  add(`bash cp to ${label}`, (id) => [
    sh(`${mk(rig, id)}; mkdir -p ${dirOf(target(id))}; cp p-${id}.sh ${target(id)}`),
  ], t);
  add(`bash cd into the control dir, then cp (${label})`, (id) => [
    sh(
      `${mk(rig, id)} && mkdir -p ${dirOf(target(id))} && cd ${dirOf(target(id))} && cp ${
        up(id)
      }p-${id}.sh ${target(id).slice(dirOf(target(id)).length + 1)}`,
    ),
  ], t);
  add(`bash cp through the symlinked parent (${label})`, (id) => [
    sh(`${mk(rig, id)} && mkdir -p ${dirOf(via(id))}; cp p-${id}.sh ${via(id)}`),
  ], t);
  add(`python3 writes ${label}`, (id) => [
    sh(
      `${mk(rig, id)} && python3 -c "import os;os.makedirs('${
        dirOf(target(id))
      }',exist_ok=True);open('${target(id)}','w').write(open('p-${id}.sh').read());os.chmod('${
        target(id)
      }',0o755)"`,
    ),
  ], t);
  add(`bash ln -s ${label} to the payload`, (id) => [
    sh(
      `${mk(rig, id)} && mkdir -p ${dirOf(target(id))} && ln -sf ${up(id)}p-${id}.sh ${target(id)}`,
    ),
  ], t);
  add(`bash install -D ${label}`, (id) => [
    sh(`${mk(rig, id)} && install -D -m755 p-${id}.sh ${target(id)}`),
  ], t);
  add(`bash mv the payload to ${label}`, (id) => [
    sh(`${mk(rig, id)} && mkdir -p ${dirOf(target(id))}; mv p-${id}.sh ${target(id)}`),
  ], t);
  add(`sh -c cp to ${label}`, (id) => [
    sh(`${mk(rig, id)} && sh -c 'mkdir -p ${dirOf(target(id))} && cp p-${id}.sh ${target(id)}'`),
  ], t);
}

/** Escapes: answered calls, no payload ran, no payload landed, nothing reached the listener. */
export function escapes(
  rig: NextRunRig,
  list: NextRunAttempt[],
  outcomes: Map<string, { result: string }>,
): string[] {
  const out: string[] = [];
  if (Deno.env.get("HS_TEST_DUMP")) {
    for (const a of list) {
      for (const c of a.calls) {
        const r = outcomes.get(c.id!)?.result.slice(0, 160).replace(/\n/g, " | ");
        console.log(`${c.id} ${a.what}: ${r}`);
      }
    }
  }
  for (const a of list) {
    for (const c of a.calls) {
      if (!outcomes.has(c.id!)) out.push(`${a.id} ${a.what}: ${c.id} not answered`);
    }
  }
  const roomOnly = new Set(list.filter((a) => a.inRoom).map((a) => a.id));
  for (const r of ranPayloads(rig)) if (!roomOnly.has(r)) out.push(`payload ${r} ran`);
  out.push(...landed(rig, list));
  if (rig.connections() > 0) out.push(`${rig.connections()} connection(s) to the agent's listener`);
  return out;
}
