/**
 * Claude Code layout (issue 28): what one stage asks of a `.claude/` tree of 50 commands
 * and 20 agents, a settings file with hooks and a CLAUDE.md, when nothing changed — the
 * layout's re-check, the hooks of a tool call, the instructions (with the agents' list),
 * the skill roots and the commands. Budget: ≤ 1 ms per stage.
 *
 * Run: deno bench -A bench/claude_bench.ts
 */
import { join } from "node:path";
import { ClaudeCompat, hooksOf } from "../core/compat/mod.ts";

const root = Deno.makeTempDirSync({ prefix: "hs-bench-claude-" });
const ws = join(root, "ws");
const claude = join(ws, ".claude");
for (const d of ["commands", "agents", "skills/s1"]) {
  Deno.mkdirSync(join(claude, d), { recursive: true });
}
for (let i = 0; i < 50; i++) {
  Deno.writeTextFileSync(
    join(claude, "commands", `c${i}.md`),
    `---\ndescription: command ${i}\nargument-hint: <x>\n---\n\nDo $ARGUMENTS (${i}).\n`,
  );
}
for (let i = 0; i < 20; i++) {
  Deno.writeTextFileSync(
    join(claude, "agents", `a${i}.md`),
    `---\nname: a${i}\ndescription: agent ${i}\ntools: Read, Bash\n---\n\nYou are agent ${i}.\n`,
  );
}
Deno.writeTextFileSync(
  join(claude, "skills/s1/SKILL.md"),
  "---\nname: s1\ndescription: d\n---\nx\n",
);
Deno.writeTextFileSync(join(ws, "CLAUDE.md"), "# Instructions\n\nBe brief.\n");
Deno.writeTextFileSync(
  join(claude, "settings.json"),
  JSON.stringify({
    permissions: { deny: ["Read(./.env)"] },
    hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "true" }] }] },
  }),
);
// mtimes in the past: a stamp taken just after a write is not trusted (MTIME_SLACK_MS)
await new Promise((r) => setTimeout(r, 20));
const compat = new ClaudeCompat({ cwd: ws, userHome: join(root, "home"), isTrusted: () => true });
// as the harness does: the built-in plugin's setup turns the layer on
await compat.plugin().setup({
  prompts: { register() {} },
  hooks: { register() {} },
  pages: { register() {} },
  onDispose() {},
} as never);
compat.instructions(); // warm: files parsed once

Deno.bench({
  name: "one stage's Claude Code look-ups, nothing changed (50 commands, 20 agents)",
  group: "claude",
  fn() {
    compat.layout.current();
    hooksOf(compat.layout, "PreToolUse", "Bash");
    hooksOf(compat.layout, "PostToolUse", "Bash");
    compat.instructions();
    compat.skillRoots();
  },
});

Deno.bench({
  name: "the slash commands' list (REPL /help, 50 commands)",
  group: "claude",
  fn() {
    compat.commands();
  },
});

globalThis.addEventListener("unload", () => Deno.removeSync(root, { recursive: true }));
