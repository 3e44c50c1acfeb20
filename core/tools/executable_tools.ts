/**
 * Executable tools (PROTOCOLS "Tools"): `--schema` (cached by path, mtime and
 * size, in memory and in `$HARNESS_HOME/.cache/schemas.json`), `--describe`,
 * and `--exec` with the input as compact JSON on stdin.
 *
 * @module
 */
import { dirname, firstUse } from "../early/mod.ts";
import { z } from "zod";
import {
  atomicWriteSync,
  type ChildSandbox,
  readTextOrUndefined,
  statOrUndefined,
  textResult,
  type ToolDefinition,
  type ToolSchema,
} from "../base/mod.ts";
import {
  DEFAULT_RESULT_FILE_LIMIT,
  DEFAULT_RESULT_LIMIT,
  formatBytes,
  runExecutable,
  tail,
} from "../exec/mod.ts";

/** Most bytes `--schema` and `--describe` may print. */
const FLAG_OUTPUT_LIMIT = 1024 * 1024;

const SchemaOutput = firstUse(() =>
  z.object({
    name: z.string().min(1),
    description: z.string().default(""),
    input_schema: z.record(z.string(), z.unknown()),
  })
);

interface CacheEntry {
  mtime: number;
  size: number;
  schema?: ToolSchema;
  describe?: string;
  problem?: string;
}

/** A tool file whose schema was rejected. */
export interface ToolProblem {
  /** The tool file. */
  path: string;
  /** Why its schema was rejected. */
  reason: string;
}

/** Schema discovery and execution of executable tools. */
export class ExecutableTools {
  #cacheFile: string;
  /** The schema cache, read on first use (a run without executable tools never reads it). */
  #cacheRead?: Record<string, CacheEntry>;
  #dirty = false;
  #env: () => Record<string, string>;
  #cwd: string;
  #log: (line: string) => void;
  #sandbox: ChildSandbox;

  /** Creates the tools; `cacheFile` keeps their schemas between runs. */
  constructor(opts: {
    cacheFile: string;
    env: () => Record<string, string>;
    cwd: string;
    log: (line: string) => void;
    /** The effect floor's OS sandbox for `--schema` / `--describe` runs. */
    sandbox: ChildSandbox;
  }) {
    this.#sandbox = opts.sandbox;
    this.#cacheFile = opts.cacheFile;
    this.#env = opts.env;
    this.#cwd = opts.cwd;
    this.#log = opts.log;
  }

  get #cache(): Record<string, CacheEntry> {
    if (!this.#cacheRead) {
      const text = readTextOrUndefined(this.#cacheFile);
      let read: unknown;
      try {
        read = text ? JSON.parse(text) : undefined;
      } catch { /* a broken cache is probed again */ }
      this.#cacheRead = read && typeof read === "object" ? read as Record<string, CacheEntry> : {};
    }
    return this.#cacheRead;
  }

  async #probe(path: string, name: string): Promise<CacheEntry> {
    const st = statOrUndefined(path);
    const mtime = st?.mtime?.getTime() ?? -1;
    const size = st?.size ?? -1;
    const hit = this.#cache[path];
    if (hit && hit.mtime === mtime && hit.size === size) return hit;
    const env = this.#env();
    const r = await runExecutable(path, {
      args: ["--schema"],
      env,
      cwd: this.#cwd,
      timeoutMs: 10_000,
      sandbox: this.#sandbox,
      what: `tool ${path}`,
      onStderr: (t) => this.#log(t.trimEnd()),
      maxStdoutBytes: FLAG_OUTPUT_LIMIT,
    });
    let entry: CacheEntry;
    if (r.overflow) {
      entry = {
        mtime,
        size,
        problem: `\`--schema\` printed more than ${formatBytes(FLAG_OUTPUT_LIMIT)}`,
      };
    } else if (r.code !== 0) {
      entry = {
        mtime,
        size,
        problem: r.timedOut
          ? "`--schema` timed out after 10 s"
          : `\`--schema\` exited ${r.code}${r.stderr ? `: ${tail(r.stderr, 2)}` : ""}`,
      };
    } else {
      let parsed: unknown;
      try {
        parsed = JSON.parse(r.stdout);
      } catch {
        parsed = undefined;
      }
      const ok = SchemaOutput().safeParse(parsed);
      if (!ok.success) {
        entry = {
          mtime,
          size,
          problem: parsed === undefined
            ? `\`--schema\` printed something that is not JSON: ${
              JSON.stringify(r.stdout.slice(0, 80))
            }`
            : "`--schema` JSON needs `name`, `description` and an `input_schema` object",
        };
      } else if (ok.data.name !== name) {
        entry = {
          mtime,
          size,
          problem: `schema name "${ok.data.name}" does not match the file name "${name}"`,
        };
      } else {
        entry = { mtime, size, schema: ok.data };
      }
    }
    this.#cache[path] = entry;
    this.#dirty = true;
    return entry;
  }

  /** Schemas of the given executable tools (probed in parallel when not cached). */
  async schemas(
    found: Iterable<{ name: string; path: string }>,
  ): Promise<
    { tools: Map<string, { schema: ToolSchema; path: string }>; problems: ToolProblem[] }
  > {
    const list = [...found];
    const entries = await Promise.all(list.map((f) => this.#probe(f.path, f.name)));
    const tools = new Map<string, { schema: ToolSchema; path: string }>();
    const problems: ToolProblem[] = [];
    list.forEach((f, i) => {
      const e = entries[i];
      if (e.schema) tools.set(f.name, { schema: e.schema, path: f.path });
      else problems.push({ path: f.path, reason: e.problem ?? "invalid schema" });
    });
    this.#save();
    return { tools, problems };
  }

  /** One-line description (`--describe`), cached with the schema. */
  async describe(path: string): Promise<string> {
    const e = this.#cache[path];
    if (e?.describe !== undefined) return e.describe;
    const r = await runExecutable(path, {
      args: ["--describe"],
      env: this.#env(),
      cwd: this.#cwd,
      timeoutMs: 5_000,
      sandbox: this.#sandbox,
      what: `tool ${path}`,
      maxStdoutBytes: FLAG_OUTPUT_LIMIT,
    });
    const line = r.code === 0 ? r.stdout.trim().split("\n")[0] ?? "" : "";
    if (e) {
      e.describe = line;
      this.#dirty = true;
      this.#save();
    }
    return line;
  }

  #save(): void {
    if (!this.#dirty) return;
    this.#dirty = false;
    try {
      Deno.mkdirSync(dirname(this.#cacheFile), { recursive: true });
      atomicWriteSync(this.#cacheFile, JSON.stringify(this.#cache));
    } catch {
      // a read-only home only costs speed
    }
  }

  /**
   * A ToolDefinition that runs `path --exec`. Its output is capped like every tool
   * result (`HARNESS_RESULT_LIMIT`): the head and the tail are the result, the whole
   * output is saved in the session's `outputs/` (up to `HARNESS_RESULT_FILE_LIMIT`,
   * where the tool is stopped).
   */
  definition(path: string, schema: ToolSchema, timeoutMs: number): ToolDefinition {
    return {
      name: schema.name,
      description: schema.description,
      inputSchema: schema.input_schema,
      execute: async (input, ctx) => {
        const r = await runExecutable(path, {
          args: ["--exec"],
          stdin: JSON.stringify(input ?? {}),
          env: ctx.env,
          cwd: ctx.cwd,
          timeoutMs,
          signal: ctx.signal,
          sandbox: ctx.effects?.sandbox ?? this.#sandbox,
          what: `tool ${path}`,
          onStderr: (t) => ctx.log(t.trimEnd()),
          output: {
            limits: { maxBytes: ctx.settings?.resultLimit ?? DEFAULT_RESULT_LIMIT },
            spill: {
              sessionDir: ctx.sessionDir,
              callId: ctx.callId,
              maxBytes: ctx.settings?.resultFileLimit ?? DEFAULT_RESULT_FILE_LIMIT,
            },
          },
        });
        if (r.overflow) {
          return textResult(
            `${r.stdout}\nerror: tool '${schema.name}' printed more than ${
              formatBytes(ctx.settings?.resultFileLimit ?? DEFAULT_RESULT_FILE_LIMIT)
            } (its process group was stopped; HARNESS_RESULT_FILE_LIMIT allows more)`,
            true,
          );
        }
        if (r.timedOut) {
          return textResult(
            `${r.stdout}${r.stdout ? "\n" : ""}error: tool '${schema.name}' timed out after ${
              Math.round(timeoutMs / 1000)
            } s (its process group was killed)`,
            true,
          );
        }
        if (r.aborted) return textResult(`${r.stdout}\n(cancelled)`, true);
        if (r.code !== 0) {
          const why = r.stderr.trim() ? `\n[stderr] ${tail(r.stderr, 10)}` : "";
          return textResult(
            `${r.stdout}${why}${r.stdout || why ? "" : `exit code ${r.code}`}`,
            true,
          );
        }
        // Like `$(tool --exec)` in the reference: trailing newlines are not part of the result.
        return textResult(r.stdout.replace(/\n+$/, ""));
      },
    };
  }
}
