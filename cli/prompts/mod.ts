/**
 * What the command line asks a person: the terminal asker (floor `ask`), workspace trust, pack
 * consent.
 *
 * @module
 */
export { isAsking, terminalAsker } from "./asker.ts";
export { handleTrust } from "./trust_prompt.ts";
export { handleConsent } from "./consent_prompt.ts";
export { askLine } from "./ask_line.ts";
