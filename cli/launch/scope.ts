/**
 * Scoping inside the process: the harness runs in a Worker whose Deno
 * permissions are the run's grant, so `deno task hs`, the installed `hs`, the
 * bundle and the compiled binary — whatever flags their process holds — run
 * the harness with the same narrowed permissions (docs/security.md "Scoping
 * inside the process").
 *
 * Deno refuses a worker more than its parent holds ("Can't escalate parent
 * thread permissions"), the harness's own workers (the file tools') are
 * workers of this one and so hold at most the grant, and the process keeps
 * one terminal, one set of signal handlers and one standard input: the worker
 * reads and writes them directly. What a worker cannot do by itself is end
 * the process — `Deno.exit` in a worker ends only that worker — so the
 * harness's exit goes to the main thread as a message ({@link serveHarness}),
 * which exits with it ({@link runInWorker}). Nor does a worker have the
 * terminal dialogs `prompt`, `confirm` and `alert` (the trust and consent
 * questions use `prompt`): {@link serveHarness} gives it the same, reading a
 * line of the terminal.
 *
 * @module
 */
import type { Grant } from "./grant.ts";

/** The name the harness worker is started with. */
export const HARNESS_WORKER = "hs-harness";

/** The message the harness worker ends with. */
interface ExitMessage {
  hsExit: number;
}

/** The system information the harness reads (`--allow-sys=…` of the launcher's flags). */
const SYS = ["osRelease", "hostname", "homedir", "uid", "gid"];

/** The grant as a worker's permissions (every key explicit; never more than the grant). */
export function workerPermissions(g: Grant): Deno.PermissionOptionsObject {
  const list = (items: string[] | "all") => items === "all" ? true : items.length ? items : false;
  return {
    read: list(g.read),
    write: list(g.write),
    net: list(g.net),
    run: list(g.run),
    env: true,
    sys: SYS as Deno.PermissionOptionsObject["sys"],
    ffi: false,
    // module loading is the process's: its import hosts, `--cached-only` of the installed hs
    import: "inherit",
  };
}

/**
 * Starts `entry` as the harness worker under the grant and resolves to its exit code.
 * Standard input, the terminal and signals stay the process's: the worker uses them
 * directly, and this thread adds no signal listener (Ctrl-C is the harness's to handle; a
 * signal it does not handle ends the process as it would have ended the harness's).
 * An uncaught error in the worker ends the process with Deno's report and status 1.
 */
export function runInWorker(entry: string | URL, grant: Grant): Promise<number> {
  const worker = new Worker(entry, {
    type: "module",
    name: HARNESS_WORKER,
    deno: { permissions: workerPermissions(grant) },
  } as WorkerOptions);
  return new Promise((resolve) => {
    worker.onmessage = (e: MessageEvent) => {
      const code = (e.data as Partial<ExitMessage> | null)?.hsExit;
      if (typeof code !== "number" || !Number.isInteger(code)) return;
      worker.terminate(); // it is ending: everything it wrote was written synchronously
      resolve(code);
    };
  });
}

/** One line of standard input (the terminal's line discipline edits and echoes it); null at its end. */
function readLine(): string | null {
  const bytes: number[] = [];
  const one = new Uint8Array(1);
  for (;;) {
    const n = Deno.stdin.readSync(one);
    if (n === null || n === 0) {
      if (!bytes.length) return null;
      break;
    }
    if (one[0] === 0x0a) break;
    bytes.push(one[0]);
  }
  if (bytes.at(-1) === 0x0d) bytes.pop();
  return new TextDecoder().decode(new Uint8Array(bytes));
}

/** `prompt`, `confirm` and `alert` as the main thread has them (null, false, nothing off a terminal). */
export function terminalDialogs(): {
  prompt(message?: string, defaultValue?: string): string | null;
  confirm(message?: string): boolean;
  alert(message?: string): void;
} {
  const ask = (text: string) => {
    Deno.stdout.writeSync(new TextEncoder().encode(text));
    return readLine();
  };
  return {
    prompt(message = "Prompt", defaultValue?: string) {
      if (!Deno.stdin.isTerminal()) return null;
      const line = ask(defaultValue ? `${message} [${defaultValue}] ` : `${message} `);
      return line === null ? null : line || (defaultValue ?? "");
    },
    confirm(message = "Confirm") {
      if (!Deno.stdin.isTerminal()) return false;
      const line = ask(`${message} [y/N] `);
      return line === "y" || line === "Y";
    },
    alert(message = "Alert") {
      if (Deno.stdin.isTerminal()) ask(`${message} [Enter] `);
    },
  };
}

/**
 * The worker side: runs `main` with the process's arguments and ends with its status. Every
 * `Deno.exit` in the worker (the second Ctrl-C's, a command's) first tells the main thread
 * the status, then ends the worker, so the process exits with it as before. The terminal
 * dialogs a worker lacks are added first.
 */
export async function serveHarness(main: (args: string[]) => Promise<number>): Promise<never> {
  const g = globalThis as Record<string, unknown>;
  for (const [name, fn] of Object.entries(terminalDialogs())) {
    if (typeof g[name] !== "function") g[name] = fn;
  }
  const scope = globalThis as unknown as { postMessage(m: ExitMessage): void };
  const endWorker = Deno.exit;
  const exit = (code?: number): never => {
    scope.postMessage({ hsExit: code ?? Deno.exitCode });
    return endWorker(code);
  };
  (Deno as { exit: typeof Deno.exit }).exit = exit;
  return exit(await main(Deno.args));
}
