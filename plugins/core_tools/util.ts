/**
 * Helpers shared by the core tools: input validation, error results, path
 * resolution and atomic file writes.
 *
 * @module
 */
import { basename, dirname, join, resolve } from "../../core/early/mod.ts";
import { z } from "zod";
import {
  type EditorFiles,
  textResult,
  type ToolContext,
  type ToolFs,
  type ToolResult,
} from "../../core/mod.ts";

/** An error result whose text starts with `error: ` (the reference's convention). */
export function errorResult(message: string): ToolResult {
  return textResult(`error: ${message}`, true);
}

/** Outcome of {@link parseInput}. */
export type Parsed<T> = { ok: true; data: T } | { ok: false; result: ToolResult };

function describeIssue(issue: z.core.$ZodIssue): string {
  const where = issue.path.map(String).join(".");
  if (issue.code === "invalid_type") {
    const missing = /received (undefined|null)$/.test(issue.message);
    if (where === "") return "input must be a JSON object";
    if (missing) return `${where} is required`;
    const expected = issue.expected === "int"
      ? "an integer"
      : `${/^[aeiou]/.test(issue.expected) ? "an" : "a"} ${issue.expected}`;
    return `${where} must be ${expected}`;
  }
  return where === "" ? issue.message : `${where}: ${issue.message}`;
}

/**
 * Validates a tool's input with a zod schema; a model mistake becomes an error
 * result (`error: path is required`, ...) instead of an exception.
 */
export function parseInput<T>(schema: z.ZodType<T>, input: unknown): Parsed<T> {
  const parsed = schema.safeParse(input);
  if (parsed.success) return { ok: true, data: parsed.data };
  const messages = [...new Set(parsed.error.issues.map(describeIssue))];
  return { ok: false, result: errorResult(messages.join("; ")) };
}

/**
 * Resolves a tool path against the session's working directory. Returns an error
 * message for empty paths and paths containing NUL bytes.
 */
export function resolveToolPath(
  cwd: string,
  path: string,
): { ok: true; path: string } | { ok: false; error: string } {
  if (path.trim() === "") return { ok: false, error: "path is required" };
  if (path.includes("\0")) return { ok: false, error: "path contains a NUL byte" };
  return { ok: true, path: resolve(cwd, path) };
}

/** Removes trailing newlines, like the reference's `$(...)` capture of tool output. */
export function trimTrailingNewlines(text: string): string {
  return text.replace(/\n+$/, "");
}

/** The message of an unknown thrown value (Deno fs errors carry the path and errno text). */
export function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** `lstat`/`stat` that resolves to undefined when the path does not exist. */
export async function statOrUndefined(path: string): Promise<Deno.FileInfo | undefined> {
  try {
    return await Deno.stat(path);
  } catch (err) {
    if (err instanceof Deno.errors.NotFound || err instanceof Deno.errors.NotADirectory) {
      return undefined;
    }
    throw err;
  }
}

/** Resolves a symlink chain so that an atomic rename replaces the target, not the link. */
async function writeTarget(path: string): Promise<string> {
  try {
    const info = await Deno.lstat(path);
    if (info.isSymlink) return await Deno.realPath(path);
  } catch {
    // missing or dangling: write at the given path
  }
  return path;
}

/**
 * Writes a file atomically: the data goes to a temporary file in the same directory,
 * is flushed, then renamed over the target. An existing file keeps its permission bits;
 * a new file gets the default mode (0666 minus umask). Parent directories are created.
 */
export async function atomicWriteFile(path: string, data: Uint8Array): Promise<void> {
  const target = await writeTarget(path);
  const dir = dirname(target);
  await Deno.mkdir(dir, { recursive: true });
  const existing = await statOrUndefined(target);
  const mode = existing?.mode != null ? existing.mode & 0o7777 : undefined;
  const tmp = join(dir, `.${basename(target)}.${crypto.randomUUID().slice(0, 8)}.tmp`);
  try {
    const file = await Deno.open(tmp, { write: true, createNew: true, mode: mode ?? 0o666 });
    try {
      let written = 0;
      while (written < data.length) written += await file.write(data.subarray(written));
      await file.sync();
    } finally {
      file.close();
    }
    if (mode !== undefined) await Deno.chmod(tmp, mode);
    await Deno.rename(tmp, target);
  } catch (err) {
    await Deno.remove(tmp).catch(() => {});
    throw err;
  }
}

/** True when the bytes look binary (a NUL byte in the first 8 KiB, like git and grep). */
export function looksBinary(bytes: Uint8Array): boolean {
  const n = Math.min(bytes.length, 8192);
  for (let i = 0; i < n; i++) if (bytes[i] === 0) return true;
  return false;
}

/**
 * An optional integer field: a JSON integer or a numeric string (models sometimes quote
 * numbers); `null` counts as absent, like the reference's `jq '.x // empty'`.
 */
export function optionalInteger(): z.ZodType<number | undefined> {
  return z.union([
    z.number().int(),
    z.string().regex(/^\s*-?[0-9]+\s*$/).transform(Number),
  ], { error: "must be an integer" }).nullish().transform((v) => v ?? undefined);
}

/** File access with this process's own rights (no effect floor). */
export const processFs: ToolFs = {
  async stat(path) {
    const info = await statOrUndefined(path);
    return info &&
      { isFile: info.isFile, isDirectory: info.isDirectory, size: info.size, mode: info.mode };
  },
  readFile: (path) => Deno.readFile(path),
  writeFileAtomic: (path, data) => atomicWriteFile(path, data),
};

/**
 * The file access a tool call must use: the effect floor's permission-narrowed
 * worker when a floor is active, else the process's own rights.
 */
export function toolFs(ctx: ToolContext): ToolFs {
  const fs = ctx.effects?.fs ?? processFs;
  const editor = ctx.effects?.editor;
  return editor ? editorFs(fs, editor, ctx.sessionDir) : fs;
}

/**
 * File access through the floor, then the editor's buffers: a read the floor allowed returns
 * the editor's text of that file when it has one; a write the floor made is told to the editor.
 */
function editorFs(fs: ToolFs, editor: EditorFiles, sessionDir: string): ToolFs {
  return {
    stat: (path) => fs.stat(path),
    async readFile(path) {
      const bytes = await fs.readFile(path);
      const open = await editor.read(path, sessionDir).catch(() => undefined);
      return open === undefined ? bytes : new TextEncoder().encode(open);
    },
    async writeFileAtomic(path, data) {
      await fs.writeFileAtomic(path, data);
      if (looksBinary(data)) return;
      await editor.wrote(path, new TextDecoder().decode(data), sessionDir).catch(() => {});
    },
  };
}
