/**
 * File access for the built-in file tools inside a Deno Worker whose
 * `deno.permissions` are exactly the effect policy (every key explicit).
 * The runtime refuses what the policy does not grant; because Deno checks
 * the path as written, the worker also resolves symlinks and asks its own
 * permission state about the real target, so a link inside the workspace
 * cannot reach outside it. One warm worker per policy is shared by every
 * harness in the process.
 *
 * The worker's code is a self-contained function (no imports), loaded from a
 * blob URL, so it survives `deno bundle` and `deno compile` unchanged.
 *
 * @module
 */
import type { ToolFileInfo, ToolFs } from "../base/mod.ts";
import { type FittedPermissions, fitToProcess, type WorkerPermissions } from "./worker_grant.ts";
import { type HostedWorker, workerHost } from "./worker_host.ts";

/** Raised when the floor refuses a file operation. */
export class FloorDenied extends Error {
  /** Creates the error with the message shown to the model. */
  constructor(message: string) {
    super(message);
    this.name = "FloorDenied";
  }
}

/** The control paths as the worker checks them (see `core/trust/control_paths.ts`). */
export interface WorkerControl {
  /** `$HARNESS_HOME`: all of it. */
  home: string;
  /** hs's own state outside the home. */
  state?: string[];
  /** `.harness` directories of the walk. */
  harnessDirs: string[];
  /** Agent rooms (names inside a `.harness`) that are not control paths. */
  rooms: string[];
  /** Other control paths. */
  others: string[];
}

/** What the worker refuses whatever its permissions say. */
export interface WorkerDenials {
  /** Never readable. */
  read: string[];
  /** Never writable. */
  write: string[];
  /** Control paths: writable only where the user approved the write. */
  control?: WorkerControl;
}

/** The worker body. Runs in the worker; must not reference anything outside itself. */
function workerMain(): void {
  const scope = globalThis as unknown as {
    onmessage: ((e: MessageEvent) => void) | null;
    postMessage(m: unknown): void;
  };
  let denyRead: string[] = [];
  let denyWrite: string[] = [];
  // a host that started this worker (worker_host.ts) adds what the asking thread may not write
  let hostDenyWrite: string[] = [];
  // the asking thread's end: this worker's parent, or the port a host handed over
  let peer: { postMessage(m: unknown): void } = scope;
  let control: WorkerControl = { home: "", harnessDirs: [], rooms: [], others: [] };
  // effects inherited from the process (held there only in part): the policy's list, checked here
  let limits: { read?: string[]; write?: string[] } = {};
  const within = (p: string, d: string) => p === d || p.startsWith(d === "/" ? "/" : d + "/");
  const notCapable = (kind: string, path: string, via?: string) => {
    const e = new Error(
      `Requires ${kind} access to "${path}"${via ? ` (the real path of ${via})` : ""}`,
    );
    e.name = "NotCapable";
    return e;
  };
  const dirOf = (p: string) => p.slice(0, p.lastIndexOf("/")) || "/";
  const check = (kind: "read" | "write", real: string, given: string) => {
    const deny = kind === "read" ? denyRead : denyWrite;
    if (deny.some((d) => within(real, d))) {
      const e = new Error(`"${real}" is on the floor's ${kind} deny list`);
      e.name = "Denied";
      throw e;
    }
    // what the asking thread may not write either (a program it may run: Deno's own rule)
    if (kind === "write" && hostDenyWrite.some((d) => within(real, d))) {
      throw notCapable(kind, real, real !== given ? given : undefined);
    }
    const state = Deno.permissions.querySync({ name: kind, path: real }).state;
    const limit = limits[kind];
    if (state !== "granted" || (limit && !limit.some((d) => within(real, d)))) {
      throw notCapable(kind, real, real !== given ? given : undefined);
    }
  };
  /**
   * Real path of `p`, or of its nearest existing ancestor joined with the rest; a dangling
   * link is followed to where it points (a write through it would land there).
   */
  const realOf = (p: string): string => {
    let rest = "";
    let cur = p;
    for (let hops = 0;; hops++) {
      try {
        const r = Deno.realPathSync(cur);
        return rest ? (r === "/" ? "" : r) + rest : r;
      } catch (err) {
        if ((err as Error).name !== "NotFound" || cur === "/" || hops > 64) throw err;
        let link: string | undefined;
        try {
          if (Deno.lstatSync(cur).isSymlink) link = Deno.readLinkSync(cur);
        } catch { /* missing: go up */ }
        if (link !== undefined) {
          const joined = link.startsWith("/") ? link : `${dirOf(cur)}/${link}`;
          const parts: string[] = [];
          for (const x of joined.split("/")) {
            if (x === "" || x === ".") continue;
            if (x === "..") parts.pop();
            else parts.push(x);
          }
          cur = "/" + parts.join("/");
          continue;
        }
        rest = cur.slice(cur.lastIndexOf("/")) + rest;
        cur = dirOf(cur);
      }
    }
  };
  /** The control root covering a real path (docs/security.md "Two kinds of paths"). */
  const controlRoot = (real: string): string | undefined => {
    if (control.home && within(real, control.home)) return control.home;
    const state = (control.state ?? []).find((d) => within(real, d));
    if (state) return state;
    for (const h of control.harnessDirs) {
      if (!within(real, h)) continue;
      if (control.rooms.some((r) => within(real, `${h}/${r}`))) return undefined;
      return h;
    }
    return control.others.find((o) => within(real, o));
  };
  const ops: Record<
    string,
    (a: { path: string; data?: Uint8Array; approved?: string[] }) => Promise<unknown>
  > = {
    stat: async ({ path }) => {
      // a path the policy lets us write may be probed even when it is not readable
      const either = (real: string) => {
        try {
          check("read", real, path);
        } catch (err) {
          try {
            check("write", real, path);
          } catch {
            throw err;
          }
        }
      };
      either(path);
      let info: Deno.FileInfo;
      try {
        info = await Deno.stat(path);
      } catch (err) {
        const n = (err as Error).name;
        if (n === "NotFound" || n === "NotADirectory") return null;
        throw err;
      }
      either(realOf(path));
      return {
        isFile: info.isFile,
        isDirectory: info.isDirectory,
        size: info.size,
        mode: info.mode,
      };
    },
    read: async ({ path }) => {
      check("read", path, path);
      check("read", realOf(path), path);
      return await Deno.readFile(path);
    },
    write: async ({ path, data, approved }) => {
      check("write", path, path);
      const target = realOf(path);
      check("write", target, path);
      const root = controlRoot(target);
      if (root !== undefined && !(approved ?? []).includes(target)) {
        const e = new Error(
          `"${target}"${target !== path ? ` (the real path of ${path})` : ""} is a control ` +
            `path (${root}): only a write the user approved may change it`,
        );
        e.name = "Denied";
        throw e;
      }
      const dir = dirOf(target);
      await Deno.mkdir(dir, { recursive: true });
      let mode: number | undefined;
      try {
        mode = (await Deno.stat(target)).mode ?? undefined;
      } catch {
        // a new script in a control path the user approved: bash cannot chmod it there
        // (read-only to the agent), so the approval of a `#!` file makes it executable
        if (root !== undefined && data![0] === 0x23 && data![1] === 0x21) mode = 0o755;
      }
      const tmp = `${dir}/.${target.slice(dir.length + 1)}.${crypto.randomUUID().slice(0, 8)}.tmp`;
      try {
        const f = await Deno.open(tmp, {
          write: true,
          createNew: true,
          mode: mode !== undefined ? mode & 0o7777 : 0o666,
        });
        try {
          let n = 0;
          while (n < data!.length) n += await f.write(data!.subarray(n));
          await f.sync();
        } finally {
          f.close();
        }
        if (mode !== undefined) await Deno.chmod(tmp, mode & 0o7777);
        await Deno.rename(tmp, target);
      } catch (err) {
        await Deno.remove(tmp).catch(() => {});
        throw err;
      }
      return null;
    },
  };
  const handle = async (e: MessageEvent) => {
    const { id, op, args } = e.data as {
      id: number;
      op: string;
      args: {
        path: string;
        data?: Uint8Array;
        denyRead?: string[];
        denyWrite?: string[];
        control?: WorkerControl;
        limits?: { read?: string[]; write?: string[] };
      };
    };
    if (op === "init") {
      denyRead = args.denyRead ?? [];
      denyWrite = args.denyWrite ?? [];
      control = args.control ?? control;
      limits = args.limits ?? {};
      peer.postMessage({ id, ok: true, value: null });
      return;
    }
    try {
      const value = await ops[op](args);
      peer.postMessage({ id, ok: true, value });
    } catch (err) {
      const x = err as Error;
      peer.postMessage({
        id,
        ok: false,
        name: x?.name ?? "Error",
        message: x?.message ?? String(x),
      });
    }
  };
  scope.onmessage = (e: MessageEvent) => {
    const m = e.data as { hsPort?: MessagePort; denyWrite?: string[] } | null;
    if (m?.hsPort) {
      peer = m.hsPort;
      hostDenyWrite = m.denyWrite ?? [];
      m.hsPort.onmessage = handle;
      return;
    }
    handle(e);
  };
}

let blobUrl: string | undefined;
function workerUrl(): string {
  blobUrl ??= URL.createObjectURL(
    new Blob([`(${workerMain.toString()})();`], { type: "application/javascript" }),
  );
  return blobUrl;
}

interface Pending {
  resolve(v: unknown): void;
  reject(e: Error): void;
}

/** One warm worker with a given permission set. */
class PolicyWorker {
  readonly key: string;
  refs = 0;
  #worker?: Worker | HostedWorker;
  #next = 1;
  #pending = new Map<number, Pending>();
  #dead?: string;
  /** Where the worker holds less than the policy (see `worker_grant.ts`). */
  readonly narrowed: string[];

  constructor(key: string, policy: WorkerPermissions, deny: WorkerDenials) {
    this.key = key;
    const start = (permissions: WorkerPermissions) =>
      new Worker(workerUrl(), {
        type: "module",
        name: "hs-floor-fs",
        deno: { permissions },
      } as WorkerOptions);
    const host = workerHost();
    if (host) {
      // started by the host (worker_host.ts), which clamps the policy to this thread's grant
      this.narrowed = [];
      this.#worker = host.start(workerUrl(), "hs-floor-fs", policy);
      this.#worker.onfailure = (message) => this.#fail(message);
      this.#listen(this.#worker, deny, {});
      return;
    }
    // The policy as it is first: a process that holds it whole (the usual case) starts one
    // worker, not a probe worker and then this one; only a refusal fits it (probes per item).
    let fitted: ReturnType<typeof fitToProcess> = { perms: policy, limits: {}, notes: [] };
    try {
      this.#worker = start(policy);
    } catch {
      fitted = fitToProcess(policy);
    }
    const { limits, notes } = fitted;
    this.narrowed = notes;
    let worker: Worker;
    try {
      worker = (this.#worker as Worker | undefined) ?? start(fitted.perms);
    } catch (err) {
      this.#dead = `cannot start the permission-scoped file worker: ${(err as Error).message} ` +
        '(run deno with --unstable-worker-options, or "unstable": ["worker-options"] in deno.json)';
      return;
    }
    this.#worker = worker;
    worker.onerror = (e: ErrorEvent) => {
      e.preventDefault();
      this.#fail(e.message);
    };
    this.#listen(worker, deny, limits);
  }

  #fail(message: string): void {
    this.#dead = message;
    for (const p of this.#pending.values()) p.reject(new Error(`file worker failed: ${message}`));
    this.#pending.clear();
  }

  #listen(
    worker: Worker | HostedWorker,
    deny: WorkerDenials,
    limits: FittedPermissions["limits"],
  ): void {
    worker.onmessage = (e: MessageEvent) => {
      const m = e.data as {
        id: number;
        ok: boolean;
        value?: unknown;
        name?: string;
        message?: string;
      };
      const p = this.#pending.get(m.id);
      if (!p) return;
      this.#pending.delete(m.id);
      if (m.ok) p.resolve(m.value);
      else {
        const err = new Error(m.message);
        err.name = m.name ?? "Error";
        p.reject(err);
      }
    };
    this.call("init", {
      path: "",
      denyRead: deny.read,
      denyWrite: deny.write,
      control: deny.control,
      limits,
    }).catch(() => {});
  }

  /** Why the worker could not start, if it could not. */
  get failure(): string | undefined {
    return this.#dead;
  }

  call(op: string, args: Record<string, unknown>): Promise<unknown> {
    if (this.#dead || !this.#worker) {
      return Promise.reject(new Error(`file worker failed: ${this.#dead}`));
    }
    const worker = this.#worker;
    const id = this.#next++;
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      worker.postMessage({ id, op, args });
    });
  }

  terminate(): void {
    this.#worker?.terminate();
    for (const p of this.#pending.values()) p.reject(new Error("file worker stopped"));
    this.#pending.clear();
  }
}

const pool = new Map<string, PolicyWorker>();

/** How a denial is explained to the model. */
export type DenialExplainer = (kind: "read" | "write", path: string, detail: string) => string;

/** A {@link ToolFs} backed by a shared warm worker; `close()` releases it. */
export interface WorkerFs extends ToolFs {
  /** Writes atomically; `approved`: real paths of control files the user approved writing. */
  writeFileAtomic(path: string, data: Uint8Array, approved?: string[]): Promise<void>;
  /** Why the worker could not start (every call then fails), if it could not. */
  readonly failure?: string;
  /** Where the worker holds less than the policy because the process does (one line each). */
  readonly narrowed: string[];
  /** Releases this handle on the shared worker. */
  close(): void;
}

/**
 * Opens (or reuses) the worker for a permission set. Denials (NotCapable,
 * PermissionDenied, the deny list) become {@link FloorDenied} errors whose message
 * the explainer writes (path and rule).
 */
export function openWorkerFs(
  perms: WorkerPermissions,
  deny: WorkerDenials,
  explain: DenialExplainer,
): WorkerFs {
  const key = JSON.stringify([perms, deny]);
  let w = pool.get(key);
  if (!w) {
    w = new PolicyWorker(key, perms, deny);
    pool.set(key, w);
  }
  w.refs++;
  const worker = w;
  let closed = false;
  const call = async (
    op: string,
    kind: "read" | "write",
    path: string,
    data?: Uint8Array,
    approved?: string[],
  ) => {
    try {
      return await worker.call(op, data ? { path, data, approved } : { path });
    } catch (err) {
      const e = err as Error;
      if (e.name === "NotCapable" || e.name === "PermissionDenied" || e.name === "Denied") {
        const k = /Requires write access/.test(e.message) ? "write" : kind;
        throw new FloorDenied(explain(k, path, e.message));
      }
      throw err;
    }
  };
  return {
    narrowed: worker.narrowed,
    failure: worker.failure,
    async stat(path) {
      return (await call("stat", "read", path)) as ToolFileInfo | undefined ?? undefined;
    },
    async readFile(path) {
      return (await call("read", "read", path)) as Uint8Array;
    },
    async writeFileAtomic(path, data, approved) {
      await call("write", "write", path, data, approved);
    },
    close() {
      if (closed) return;
      closed = true;
      worker.refs--;
      if (worker.refs === 0) {
        worker.terminate();
        pool.delete(worker.key);
      }
    },
  };
}
