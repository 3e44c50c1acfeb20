/**
 * `.conf` variants shipped inside the binary (as strings). A user's
 * `providers/<name>.conf` of the same name overrides them.
 *
 * @module
 */
export { bundledConfs } from "./confs.ts";
