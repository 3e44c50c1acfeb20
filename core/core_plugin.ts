/**
 * The "core" runtime plugin: the loop's built-in stage hooks and the base
 * system prompt, registered through the host like any plugin.
 *
 * @module
 */
import type { RuntimePlugin } from "./plugins/mod.ts";
import { compactHooks, loopHooks, resolveHooks, sourcesHooks } from "./loop/mod.ts";

const SYSTEM_PROMPT = `You are an autonomous coding agent working in the user's terminal, in the
directory given by your tools' working directory. Complete the task with your tools and answer
concisely.

- Inspect before you change: search with \`bash\` (rg, grep, find, git status) and read narrowly
  with \`read_file\` offset/limit.
- Edit with \`edit_file\` using the line anchors \`read_file\` printed; write new files with
  \`write_file\`.
- Say in one short sentence what you are about to do before an edit or a command with effects.
- A skill in the catalog below that matches the task is authoritative: load it with the \`skill\`
  tool first.
- You can extend yourself: an executable dropped into \`.harness/tools/\` (answering --schema,
  --describe, --exec) is callable on your next round. Test a new tool by calling it.`;

/** The kernel's own plugin. */
export const corePlugin: RuntimePlugin = {
  id: "core",
  version: "1.0.0",
  apiVersion: 1,
  setup(ctx) {
    for (const hook of [...sourcesHooks, ...resolveHooks, ...loopHooks, ...compactHooks]) {
      ctx.hooks.register(hook);
    }
    ctx.prompts.register({ id: "system", order: 0, render: () => SYSTEM_PROMPT });
  },
};
