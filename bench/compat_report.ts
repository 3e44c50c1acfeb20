/**
 * Medians for issue 10 (the reference contract and `hs acp`): what the `sources` stage,
 * the built-ins' directory, the private `/tmp` and a long-lived `hs acp` cost, with the
 * reference's per-stage `sources` chain as the peer when a checkout of it is given.
 * Prints a markdown table.
 *
 * Run: deno run -A bench/compat_report.ts [--peer DIR]   (DIR: a wedow/harness v0.2.0 checkout)
 */
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import * as acp from "@agentclientprotocol/sdk";
import { bwrapArgs, probeBwrap } from "../core/mod.ts";
import { ensureBuiltinSource } from "../core/builtin_source.ts";
import { startScriptedServer } from "../plugins/scripted/mod.ts";
import { serverStats, startBenchServer, workspace } from "./support.ts";
import { median, timeMany } from "./_stats.ts";

const REPO = fileURLToPath(new URL("..", import.meta.url)).replace(/\/$/, "");
const peerAt = Deno.args.indexOf("--peer");
const PEER = peerAt >= 0 ? Deno.args[peerAt + 1] : undefined;

const rows: [string, string][] = [];
const ms = (x: number) => (x < 1 ? `${(x * 1000).toFixed(0)} µs` : `${x.toFixed(1)} ms`);

// 1. a turn with and without a user-level sources hook (steady state: the chain does not re-run)
const server = startBenchServer();
const turns: Record<string, number> = {};
for (const hook of [false, true]) {
  const { h, root } = await workspace(server.url, false);
  if (hook) {
    const p = join(root, "home", "hooks.d", "sources", "50-pass");
    await Deno.mkdir(join(p, ".."), { recursive: true });
    await Deno.writeTextFile(p, "#!/bin/sh\nexec cat\n");
    await Deno.chmod(p, 0o755);
  }
  await h.catalog.refreshSources();
  await h.run({ message: "warm", provider: "bench" });
  const per: number[] = [];
  for (let i = 0; i < 30; i++) {
    const before = serverStats.ms;
    const t0 = performance.now();
    const r = await h.run({ message: "go", provider: "bench" });
    per.push(performance.now() - t0 - (serverStats.ms - before));
    if (r.error) throw new Error(r.message);
  }
  turns[String(hook)] = median(per);
  rows.push([
    hook
      ? "one-tool turn, a user-level `sources` hook (chain cached)"
      : "one-tool turn, no `sources` hook",
    ms(median(per)),
  ]);
  if (hook) {
    rows.push([
      "`refreshSources()` before a stage, nothing changed",
      ms(median(await timeMany(3000, () => h.catalog.refreshSources()))),
    ]);
    // a change re-runs the chain (one executable hook, here without an OS sandbox)
    const xs = await timeMany(20, async () => {
      await Deno.writeTextFile(join(root, "home", `touch-${crypto.randomUUID()}`), "");
      await new Promise((r) => setTimeout(r, 5)); // past the mtime precision window
      await h.catalog.refreshSources();
    });
    rows.push(["`sources` chain after a change (one `sh` hook, unsandboxed)", ms(median(xs))]);
    rows.push([
      "the built-ins' directory at start-up, already written",
      ms(median(
        await timeMany(200, () =>
          ensureBuiltinSource({
            home: join(root, "home"),
            tools: h.registries.tools.values(),
            prompts: h.registries.prompts.values(),
          }, () => {})),
      )),
    ]);
  }
  await h.close();
  await Deno.remove(root, { recursive: true });
}
await server.close();

// 2. bubblewrap with and without the private /tmp
const probe = await probeBwrap(Deno.env.toObject());
if (probe.ok) {
  const policy = {
    read: [REPO],
    write: [] as string[],
    net: [] as string[],
    run: "all" as const,
    env: [] as string[],
    deny: { read: [], write: [], net: [], run: [], env: [] },
  };
  const args = bwrapArgs(policy, { readOnly: [], writable: [], cwd: "/" });
  const without: string[] = [];
  for (let i = 0; i < args.length; i++) {
    if (args[i] === "--tmpfs" && args[i + 1] === "/tmp") i++;
    else without.push(args[i]);
  }
  const spawn = (a: string[]) => () =>
    new Deno.Command(probe.bwrap!, { args: [...a, "--", "/bin/true"], stdout: "null" }).output();
  for (let i = 0; i < 5; i++) await spawn(args)();
  const a = median(await timeMany(40, spawn(without)));
  const b = median(await timeMany(40, spawn(args)));
  rows.push(["spawn `/bin/true` under bubblewrap, no private `/tmp`", ms(a)]);
  rows.push(["spawn `/bin/true` under bubblewrap, private `/tmp` (tmpfs)", ms(b)]);
}

// 3. hs acp: one connection, many prompts, vs one `hs` process per message
{
  const root = await Deno.makeTempDir({ prefix: "hs-bench-acp-" });
  const ws = join(root, "ws");
  await Deno.mkdir(join(ws, ".harness/providers"), { recursive: true });
  const n = 15;
  const scripted = await startScriptedServer(
    Array.from({ length: 2 * n + 2 }, () => ({ text: "ok" })),
  );
  await Deno.writeTextFile(
    join(ws, ".harness/providers/loop.conf"),
    `protocol=anthropic\nurl=${scripted.url}/v1/messages\nmodel=m\n`,
  );
  await Deno.writeTextFile(join(ws, ".harness/settings.conf"), "provider=loop\n");
  const env = {
    HOME: root,
    HARNESS_HOME: join(root, "home"),
    HARNESS_LOG: join(root, "log"),
    PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
    DENO_DIR: Deno.env.get("DENO_DIR") ?? join(Deno.env.get("HOME") ?? "/root", ".cache", "deno"),
  };
  const hs = ["task", "-q", "--config", join(REPO, "deno.json"), "hs"];
  const t0 = performance.now();
  const child = new Deno.Command(Deno.execPath(), {
    args: [...hs, "acp", "--trust-workspace"],
    cwd: ws,
    env,
    clearEnv: true,
    stdin: "piped",
    stdout: "piped",
    stderr: "null",
  }).spawn();
  const perPrompt: number[] = [];
  let initMs = 0;
  await acp.client({ name: "bench" }).connectWith(
    acp.ndJsonStream(child.stdin, child.stdout),
    async (ctx) => {
      await ctx.request(acp.methods.agent.initialize, { protocolVersion: acp.PROTOCOL_VERSION });
      initMs = performance.now() - t0;
      const { sessionId } = await ctx.request(acp.methods.agent.session.new, {
        cwd: ws,
        mcpServers: [],
      });
      for (let i = 0; i < n; i++) {
        const s = performance.now();
        await ctx.request(acp.methods.agent.session.prompt, {
          sessionId,
          prompt: [{ type: "text", text: "hi" }],
        });
        perPrompt.push(performance.now() - s);
      }
    },
  );
  try {
    await child.stdin.close();
  } catch { /* closed with the connection */ }
  await child.status;
  const perProcess = await timeMany(7, () =>
    new Deno.Command(Deno.execPath(), {
      args: [...hs, "--trust-workspace", "hi"],
      cwd: ws,
      env,
      clearEnv: true,
      stdout: "null",
      stderr: "null",
    }).output());
  await scripted.close();
  await Deno.remove(root, { recursive: true });
  rows.push(["`hs acp` start-up to the `initialize` answer (through `deno task hs`)", ms(initMs)]);
  rows.push(["`hs acp` prompt round trip, one-line answer", ms(median(perPrompt))]);
  rows.push([
    '`hs "hi"`, one process per message (through `deno task hs`)',
    ms(median(perProcess)),
  ]);
}

// 4. the peer: the reference's sources chain, which it runs before every stage
if (PEER) {
  const hooks = ["30-walk-dirs", "40-scope-providers"].map((n) =>
    join(PEER, "plugins/core/hooks.d/sources", n)
  );
  hooks.splice(1, 0, join(PEER, "plugins/auth/hooks.d/sources/35-auth-env"));
  const home = await Deno.makeTempDir({ prefix: "hs-bench-peer-" });
  const env = { HARNESS_ROOT: PEER, HARNESS_HOME: home, PATH: Deno.env.get("PATH") ?? "" };
  const chain = async () => {
    let input = "{}";
    for (const h of hooks) {
      const c = new Deno.Command(h, { env, stdin: "piped", stdout: "piped", stderr: "null" })
        .spawn();
      const w = c.stdin.getWriter();
      await w.write(new TextEncoder().encode(input));
      await w.close();
      input = new TextDecoder().decode((await c.output()).stdout);
    }
  };
  const xs = await timeMany(10, chain);
  await Deno.remove(home, { recursive: true });
  rows.push(["peer: the reference's `sources` chain (run before every stage)", ms(median(xs))]);
}

console.log(
  `machine: ${Deno.build.target}, ${navigator.hardwareConcurrency} cores, Deno ${Deno.version.deno}\n`,
);
console.log("| measurement | median |\n| --- | --- |");
for (const [a, b] of rows) console.log(`| ${a} | ${b} |`);
console.log(
  `\nturn overhead of a cached sources chain: ${ms(turns["true"] - turns["false"])} (${
    (turns["true"] / turns["false"]).toFixed(2)
  }×)`,
);
