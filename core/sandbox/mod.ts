/**
 * Runtime enforcement of the effect policy: the permission-narrowed file
 * worker and the OS sandbox for child processes.
 *
 * @module
 */
export * from "./bwrap.ts";
export * from "./fs_worker.ts";
export * from "./os_sandbox.ts";
