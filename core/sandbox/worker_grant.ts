/**
 * Fits a worker's permissions to what this process holds. Deno refuses to start a worker
 * whose permissions exceed its parent's ("Can't escalate parent thread permissions"), and
 * a process can hold a path only in part: Deno never lets a process write a program it may
 * run (`--allow-run=/ws/.harness/commands/x` makes that file unwritable under a granted
 * `--allow-write=/ws`), and a worker's permissions cannot carry that exception. So each
 * list item the process holds only in part is found (a probe worker per item), the worker
 * inherits that effect from the process — whose own refusals stay in force — and the
 * worker itself enforces the policy's list on top: the worker holds the intersection of
 * the policy and the process, and the notes say where it narrowed.
 *
 * @module
 */
/** Worker permissions: the effect policy in Deno's terms. */
export interface WorkerPermissions {
  /** Paths the worker may read. */
  read: boolean | "inherit" | string[];
  /** Paths the worker may write. */
  write: boolean | "inherit" | string[];
  /** Hosts the worker may reach. */
  net: boolean | "inherit" | string[];
  /** Variables the worker may read. */
  env: boolean | "inherit" | string[];
  /** Never: the worker runs no programs. */
  run: false;
  /** Never: no native libraries. */
  ffi: false;
  /** Never: no system information. */
  sys: false;
  /** Never: no dynamic imports. */
  import: false;
}

/** Permissions a worker can be started with, and what the worker enforces itself. */
export interface FittedPermissions {
  /** What the worker is started with. */
  perms: WorkerPermissions;
  /** Effects the worker inherits: the policy's list, enforced by the worker. */
  limits: { read?: string[]; write?: string[] };
  /** One line per narrowing (effect, item, why). */
  notes: string[];
}

const NONE: WorkerPermissions = {
  read: false,
  write: false,
  net: false,
  env: false,
  run: false,
  ffi: false,
  sys: false,
  import: false,
};

const PROBE = "self.close();";
let probeUrl: string | undefined;

/** True when a worker with these permissions may start here. */
export function canStart(perms: WorkerPermissions): boolean {
  probeUrl ??= URL.createObjectURL(new Blob([PROBE], { type: "application/javascript" }));
  try {
    const w = new Worker(
      probeUrl,
      { type: "module", deno: { permissions: perms } } as WorkerOptions,
    );
    w.terminate();
    return true;
  } catch {
    return false;
  }
}

/**
 * The permissions fitted to the process (see the module). `probe` decides whether a
 * permission set may start (tests pass their own).
 */
export function fitToProcess(
  perms: WorkerPermissions,
  probe: (p: WorkerPermissions) => boolean = canStart,
): FittedPermissions {
  if (probe(perms)) return { perms, limits: {}, notes: [] };
  const out: WorkerPermissions = { ...perms };
  const limits: FittedPermissions["limits"] = {};
  const notes: string[] = [];
  for (const e of ["read", "write", "net", "env"] as const) {
    const g = perms[e];
    if (probe({ ...NONE, [e]: g })) continue;
    if (!Array.isArray(g) || (e !== "read" && e !== "write")) {
      // the file worker needs neither net nor env: what the process lacks, it does without
      out[e] = false;
      notes.push(`${e}: not held by the process; the file worker goes without`);
      continue;
    }
    const partly = g.filter((item) => !probe({ ...NONE, [e]: [item] }));
    out[e] = "inherit";
    limits[e] = [...g];
    for (const item of partly) {
      notes.push(
        `${e}: the process holds ${item} only in part` +
          (e === "write" ? " (Deno never lets a process write a program it may run)" : "") +
          ": what it lacks there stays out of the tools' reach",
      );
    }
  }
  return { perms: out, limits, notes };
}
