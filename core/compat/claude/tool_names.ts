/**
 * hs tool names and inputs as Claude Code names them, so hooks and permission rules
 * written for that ecosystem see what they expect: `bash` is `Bash` with
 * `{command, timeout, description}`, `read_file` is `Read` with `{file_path, offset,
 * limit}`, `write_file` is `Write` `{file_path, content}`, `edit_file` is `Edit`
 * `{file_path, edits}`, `agent` is `Task` `{prompt, subagent_type}`, `skill` is
 * `Skill`; MCP tools keep their `mcp__server__tool` names; other tools keep theirs.
 *
 * @module
 */
import { isAbsolute, resolve } from "../../early/mod.ts";

const TO_CLAUDE: Record<string, string> = {
  bash: "Bash",
  read_file: "Read",
  write_file: "Write",
  edit_file: "Edit",
  agent: "Task",
  skill: "Skill",
};

/** hs tool name(s) of a Claude Code tool name (`Edit` also covers writes, as there). */
export const FROM_CLAUDE: Record<string, string[]> = {
  Bash: ["bash"],
  Read: ["read_file"],
  Write: ["write_file"],
  Edit: ["edit_file", "write_file"],
  MultiEdit: ["edit_file"],
  Task: ["agent"],
  Agent: ["agent"],
  Skill: ["skill"],
};

/** The Claude Code name of an hs tool. */
export function claudeToolName(tool: string): string {
  return TO_CLAUDE[tool] ?? tool;
}

/** A tool call's input in the shape Claude Code hooks read (paths absolute). */
export function claudeToolInput(
  tool: string,
  input: unknown,
  cwd: string,
): Record<string, unknown> {
  const o = (input && typeof input === "object" && !Array.isArray(input) ? input : {}) as Record<
    string,
    unknown
  >;
  const abs = (p: unknown) =>
    typeof p === "string" ? (isAbsolute(p) ? p : resolve(cwd, p)) : undefined;
  switch (tool) {
    case "bash":
      return {
        command: o.command,
        ...(typeof o.timeout === "number" ? { timeout: o.timeout * 1000 } : {}),
        description: "",
      };
    case "read_file":
      return { file_path: abs(o.path), offset: o.offset, limit: o.limit };
    case "write_file":
      return { file_path: abs(o.path), content: o.content };
    case "edit_file":
      return { file_path: abs(o.path), edits: o.edits };
    case "agent":
      return { prompt: o.prompt, subagent_type: o.bot ?? "general-purpose", description: "" };
    default:
      return { ...o };
  }
}
