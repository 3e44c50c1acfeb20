/**
 * Enforcement of an effect policy below the harness: a Deno Worker whose
 * permissions are exactly the policy (file tools), and bubblewrap for child
 * processes.
 *
 * @module
 */
export * from "./policy.ts";
export * from "./bwrap.ts";
export { bwrapBinary } from "./locate/mod.ts";
export * from "./fs_worker.ts";
export * from "./worker_grant.ts";
export * from "./os_sandbox.ts";
export * from "./control_mounts.ts";
export { type HostedWorker, WORKER_HOST_KEY, type WorkerHost } from "./worker_host.ts";
