/**
 * Test helpers for the core tools: a ToolContext over a temp directory and a
 * runner that returns the result text.
 *
 * @module
 */
import { resultText, type ToolContext, type ToolDefinition } from "../../../core/mod.ts";

/** A ToolContext for tests; `env` is the WHOLE child environment. */
export function makeCtx(cwd: string, overrides: Partial<ToolContext> = {}): ToolContext {
  return {
    cwd,
    env: { PATH: "/usr/local/bin:/usr/bin:/bin", HARNESS_CWD: cwd },
    signal: new AbortController().signal,
    sessionDir: "",
    callId: "call_test",
    log: () => {},
    ...overrides,
  };
}

/** Runs a tool and returns `{text, isError}`. */
export async function run(
  tool: ToolDefinition,
  input: unknown,
  ctx: ToolContext,
): Promise<{ text: string; isError: boolean }> {
  const result = await tool.execute(input, ctx);
  return { text: resultText(result), isError: result.isError === true };
}

/** Runs `fn` with a fresh temp directory, removed afterwards. */
export async function withTempDir(fn: (dir: string) => Promise<void>): Promise<void> {
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "hs_core_tools_" }));
  try {
    await fn(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/** The anchor (`N#HH`) of line `n` in `read_file` output. */
export function anchorOf(readOutput: string, n: number): string {
  const line = readOutput.split("\n").find((l) => l.startsWith(`${n}#`));
  if (!line) throw new Error(`no line ${n} in:\n${readOutput}`);
  return line.slice(0, line.indexOf(":"));
}
