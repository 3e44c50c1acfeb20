/**
 * The built-in commands, one file each (a folder for one with several files): each is a leaf —
 * it imports no other command (`deno task check` rejects that, scripts/shape_rules.ts); what
 * two commands share lives in a room both import (cli/repl/, cli/view/, cli/prompts/,
 * cli/harness/, cli/acp/, cli/web/). A run imports only the command it runs, by its file:
 * a new command is also listed in cli/command_table.ts (tests/cli/command_table_test.ts checks
 * the two agree); this list is what a bundle loads (cli/bundled.ts).
 *
 * @module
 */
export { register as acp } from "./acp.ts";
export { quick as agentQuick, register as agent } from "./agent.ts";
export { register as auth } from "./auth.ts";
export { register as doctor } from "./doctor.ts";
export { register as floor } from "./floor.ts";
export { listExternal as helpExternal, register as help } from "./help.ts";
export { register as hooks } from "./hooks.ts";
export { register as init } from "./init.ts";
export { register as packs } from "./packs/mod.ts";
export { quick as pluginsQuick, register as plugins } from "./plugins.ts";
export { register as providers } from "./providers.ts";
export { register as repl } from "./repl.ts";
export { register as resume } from "./resume.ts";
export { register as scheme } from "./scheme.ts";
export { quick as sessionQuick, register as session } from "./session.ts";
export { quick as skillsQuick, register as skills } from "./skills.ts";
export { quick as toolsQuick, register as tools } from "./tools.ts";
export { register as trust } from "./trust.ts";
export { register as version, versionText } from "./version.ts";
export { register as web } from "./web.ts";
