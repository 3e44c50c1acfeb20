/**
 * The presence marker: the value a child sees in place of a provider key that is set (in
 * hs's environment, or stored with `hs auth set`). Hooks written for the reference detect a
 * provider with `[ -n "${!auth_env}" ]`; the marker makes that test true while the key
 * itself never reaches a hook's, tool's or command's environment (PROTOCOLS "Environment").
 *
 * @module
 */

/** What a child finds in a provider's key variable when the key is set: not the key. */
export const PRESENCE_MARKER = "hs-key-present:withheld";
