/**
 * `hs web [--port N] [--host ADDR] [--open]`: the web UI (cli/web/) on
 * loopback, with a random token per run in the printed address. One harness
 * for the server's lifetime, in the working directory: turns started from the
 * browser run on it, the effect floor's `ask` is answered in the browser, and
 * packs waiting for consent are approved there. Ctrl-C (or SIGTERM) cancels
 * the running turns and stops.
 *
 * @module
 */
import type { Command } from "@commander-js/extra-typings";
import type { FrontEnd } from "../../core/mod.ts";
import { HarnessError } from "../../core/base/mod.ts";
import type { CliContext } from "../base/mod.ts";
import { addRunFlags, type CommandContext, floorRequestOf, type RunFlags } from "../harness/mod.ts";
import { handleTrust } from "../prompts/mod.ts";
import { isLoopback, newToken, startWebServer, WebRuns, type WebServer } from "../web/mod.ts";

/** Flags of `hs web`. */
export type WebFlags = RunFlags & {
  port?: string;
  host?: string;
  open?: boolean;
  /** List every workspace's sessions by default. */
  all?: boolean;
};

/** Hooks for embedding `hs web` (tests, benchmarks). */
export interface WebRunHooks {
  /** Stops the server like Ctrl-C does. */
  stop?: AbortSignal;
  /** Called once the server listens. */
  ready?(server: WebServer, h: FrontEnd): void;
}

/** Parses `--port` (0 = any free port). */
export function parsePort(text: string | undefined): number {
  if (text === undefined) return 0;
  const n = Number(text);
  if (!/^\d+$/.test(text) || n > 65535) {
    throw new HarnessError(`--port ${text} is not a port`, "use a number from 0 to 65535", 2);
  }
  return n;
}

/** The program that opens a URL in the desktop's browser. */
function opener(): string {
  return Deno.build.os === "darwin" ? "open" : "xdg-open";
}

async function openBrowser(url: string, cli: CliContext): Promise<void> {
  try {
    const child = new Deno.Command(opener(), {
      args: [url],
      stdin: "null",
      stdout: "null",
      stderr: "null",
    }).spawn();
    const status = await child.status;
    if (!status.success) throw new Error(`${opener()} exited ${status.code}`);
  } catch (err) {
    cli.stderr(
      `hs web: could not open a browser (${(err as Error).name}); open the address above\n`,
    );
  }
}

/** Serves the web UI until Ctrl-C, SIGTERM or `hooks.stop`; resolves to the exit code. */
export async function runWeb(
  cli: CliContext,
  flags: WebFlags,
  hooks: WebRunHooks = {},
): Promise<number> {
  const port = parsePort(flags.port);
  const hostname = flags.host ?? "127.0.0.1";
  // the floor's asker comes from the runs, which run on the harness
  const ref: { h?: FrontEnd } = {};
  const runs = new WebRuns({
    run: (o) => {
      // the page shows the consent banner: a run started with guards still waiting is the
      // person's "not now" (the bot stays detached; approving it on /plugins attaches it)
      const h = ref.h!;
      for (const b of h.packs.bots()) {
        if (b.spec.attach === "foreground" && b.pending.length) h.packs.decline(b);
      }
      return h.runs.run(o);
    },
    provider: flags.provider,
    model: flags.model,
    log: (line) => ref.h?.log(line),
  });
  const h = ref.h = await cli.createHarness({
    cwd: cli.cwd,
    env: cli.env,
    trustWorkspace: flags.trustWorkspace === true,
    floorRequest: { ...floorRequestOf(flags, cli, false), asker: runs.asker },
    terminal: false,
  });
  let server: WebServer | undefined;
  try {
    await handleTrust(h, cli);
    await h.catalog.refreshSources();
    server = await startWebServer({
      harness: h,
      runs,
      hostname,
      port,
      token: newToken(),
      everyWorkspace: flags.all === true,
      log: (line) => h.log(line),
    });
    cli.stdout(
      `hs web: serving ${h.where.cwd}\n  open ${server.url}\n  (Ctrl-C stops; the address carries this run's token)\n`,
    );
    if (!isLoopback(hostname)) {
      cli.stderr(
        `hs web: listening on ${hostname}, not only this machine: whoever reaches it with the ` +
          "token drives your agent, and HTTP is not encrypted\n",
      );
    }
    for (const b of h.packs.bots()) {
      if (b.spec.attach === "foreground" && b.pending.length) {
        cli.stderr(
          `hs web: pack ${b.pack.name}/${b.spec.name} waits for your consent (Plugins page)\n`,
        );
      }
    }
    if (flags.open) await openBrowser(server.url, cli);
    hooks.ready?.(server, h);
    await stopped(hooks.stop, server.finished);
    return 0;
  } finally {
    await runs.close();
    await server?.close();
    await h.close();
  }
}

/** Resolves on SIGINT, SIGTERM, the stop signal, or when the server ends by itself. */
function stopped(stop: AbortSignal | undefined, finished: Promise<void>): Promise<void> {
  return new Promise<void>((resolve) => {
    const signals: Deno.Signal[] = Deno.build.os === "windows" ? ["SIGINT"] : ["SIGINT", "SIGTERM"];
    let over = false;
    const done = () => {
      if (over) return;
      over = true;
      for (const s of signals) Deno.removeSignalListener(s, done);
      stop?.removeEventListener("abort", done);
      resolve();
    };
    for (const s of signals) Deno.addSignalListener(s, done);
    stop?.addEventListener("abort", done, { once: true });
    if (stop?.aborted) done();
    finished.then(done, done);
  });
}

/** Registers `hs web`. */
export function register(program: Command, ctx: CommandContext): void {
  (addRunFlags(
    program.command("web").description(
      "serve sessions, /context, /plugins and plugin pages in a browser (loopback, per-run token)",
    ),
  ) as unknown as Command<[], WebFlags>)
    .option("--port <n>", "port to listen on (default: any free port)")
    .option("--host <addr>", "address to listen on (default 127.0.0.1; anything else is exposed)")
    .option("--open", "open the address in the desktop's browser")
    .option("--all", "list every workspace's sessions, not only this one's")
    .action(async (flags) => {
      ctx.done(await runWeb(ctx.cli, flags as WebFlags));
    });
}
