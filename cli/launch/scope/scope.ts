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
import type { HostedWorker, WorkerHost, WorkerPermissions } from "../../../core/sandbox/mod.ts";

/** The permissions of a run (cli/launch/grant.ts's `Grant`): paths, hosts, programs or "all". */
export interface WorkerGrant {
  read: string[] | "all";
  write: string[] | "all";
  net: string[] | "all";
  run: string[] | "all";
}
type Grant = WorkerGrant;

/** The name the harness worker is started with. */
export const HARNESS_WORKER = "hs-harness";

/** The message the harness worker ends with. */
interface ExitMessage {
  hsExit: number;
}

/** What the harness worker asks of the main thread about the workers it starts (worker_host). */
interface HostRequest {
  /** Start a worker: its URL, name and permissions; the port it talks through is transferred. */
  hsStart?: { id: number; url: string; name: string; permissions: WorkerPermissions };
  /** End the worker of this id. */
  hsEnd?: number;
}

/** The main thread's answer: a started worker failed. */
interface HostFailure {
  hsFailed: { id: number; message: string };
}

/** Where the harness worker's worker host is found (core/sandbox/worker_host.ts). */
const WORKER_HOST = Symbol.for("hs.workerHost");

const within = (p: string, d: string) => p === d || p.startsWith(d === "/" ? "/" : d + "/");

/**
 * A path permission clamped to a grant's: what the worker asks that the grant covers (an item
 * inside a granted path, or the granted paths inside an item); "inherit" and `true` are the
 * grant's. Never more than the grant.
 */
export function clampPaths(
  asked: boolean | "inherit" | string[],
  granted: string[] | "all",
): boolean | string[] {
  if (asked === false) return false;
  if (granted === "all") return asked === "inherit" ? true : asked;
  if (asked === true || asked === "inherit") return granted.length ? [...granted] : false;
  const out = new Set<string>();
  for (const p of asked) {
    if (granted.some((g) => within(p, g))) out.add(p);
    else for (const g of granted) if (within(g, p)) out.add(g);
  }
  return out.size ? [...out] : false;
}

/** Hosts clamped to a grant's: those the grant names ("inherit" and `true`: the grant's). */
function clampHosts(
  asked: boolean | "inherit" | string[],
  granted: string[] | "all",
): boolean | string[] {
  if (asked === false) return false;
  if (granted === "all") return asked === "inherit" ? true : asked;
  const out = asked === true || asked === "inherit"
    ? granted
    : asked.filter((h) => granted.includes(h));
  return out.length ? [...out] : false;
}

/** A worker's permissions clamped to the grant (it runs nothing, loads nothing, reads no system). */
export function clampToGrant(p: WorkerPermissions, g: Grant): Deno.PermissionOptionsObject {
  return {
    read: clampPaths(p.read, g.read),
    write: clampPaths(p.write, g.write),
    net: clampHosts(p.net, g.net),
    env: p.env === "inherit" ? true : p.env,
    run: false,
    ffi: false,
    sys: false,
    import: false,
  };
}

/**
 * Starts the worker the harness worker asked for, under its permissions clamped to the grant,
 * and hands it the port: the two then talk directly. Deno never lets a process write a program
 * it may run, so the grant's programs stay unwritable for the worker too.
 */
function startHosted(
  req: NonNullable<HostRequest["hsStart"]>,
  port: MessagePort,
  grant: Grant,
  fail: (m: HostFailure) => void,
): Worker {
  const w = new Worker(req.url, {
    type: "module",
    name: req.name,
    deno: { permissions: clampToGrant(req.permissions, grant) },
  } as WorkerOptions);
  w.onerror = (e: ErrorEvent) => {
    e.preventDefault();
    fail({ hsFailed: { id: req.id, message: e.message } });
  };
  const denyWrite = grant.run === "all" ? [] : grant.run;
  w.postMessage({ hsPort: port, denyWrite }, [port]);
  return w;
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
  const hosted = new Map<number, Worker>();
  return new Promise((resolve) => {
    worker.onmessage = (e: MessageEvent) => {
      const m = e.data as (Partial<ExitMessage> & HostRequest) | null;
      if (m?.hsStart && e.ports[0] && !hosted.has(m.hsStart.id)) {
        try {
          hosted.set(
            m.hsStart.id,
            startHosted(m.hsStart, e.ports[0], grant, (f) => {
              worker.postMessage(f);
            }),
          );
        } catch (err) {
          worker.postMessage({ hsFailed: { id: m.hsStart.id, message: (err as Error).message } });
        }
        return;
      }
      if (typeof m?.hsEnd === "number") {
        hosted.get(m.hsEnd)?.terminate();
        hosted.delete(m.hsEnd);
        return;
      }
      const code = m?.hsExit;
      if (typeof code !== "number" || !Number.isInteger(code)) return;
      for (const w of hosted.values()) w.terminate();
      worker.terminate(); // it is ending: everything it wrote was written synchronously
      resolve(code);
    };
  });
}

/**
 * The harness worker's worker host (core/sandbox/worker_host.ts): the main thread starts the
 * worker (a worker inside a worker takes about a second to start in Deno 2.9) and the two
 * talk through a port.
 */
function mainThreadHost(): WorkerHost {
  const scope = globalThis as unknown as {
    postMessage(m: HostRequest, transfer: Transferable[]): void;
    addEventListener(type: "message", fn: (e: MessageEvent) => void): void;
  };
  const failed = new Map<number, (message: string) => void>();
  scope.addEventListener("message", (e: MessageEvent) => {
    const f = (e.data as Partial<HostFailure> | null)?.hsFailed;
    if (f) failed.get(f.id)?.(f.message);
  });
  let next = 1;
  return {
    start(url, name, permissions): HostedWorker {
      const id = next++;
      const { port1, port2 } = new MessageChannel();
      scope.postMessage({ hsStart: { id, url, name, permissions } }, [port2]);
      const hosted: HostedWorker = {
        postMessage: (m) => port1.postMessage(m),
        get onmessage() {
          return port1.onmessage;
        },
        set onmessage(fn) {
          port1.onmessage = fn;
        },
        onfailure: null,
        terminate() {
          failed.delete(id);
          port1.close();
          scope.postMessage({ hsEnd: id }, []);
        },
      };
      failed.set(id, (message) => hosted.onfailure?.(message));
      return hosted;
    },
  };
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
  (globalThis as Record<symbol, unknown>)[WORKER_HOST] = mainThreadHost();
  const scope = globalThis as unknown as { postMessage(m: ExitMessage): void };
  const endWorker = Deno.exit;
  const exit = (code?: number): never => {
    scope.postMessage({ hsExit: code ?? Deno.exitCode });
    return endWorker(code);
  };
  (Deno as { exit: typeof Deno.exit }).exit = exit;
  return exit(await main(Deno.args));
}
