/**
 * The `memory` plugin: its tool, prompt index, page and sync lifecycle (see mod.ts).
 *
 * @module
 */
import { isAbsolute, join } from "../../core/early/mod.ts";
import { z } from "zod";
import {
  type Json,
  type PluginContext,
  type RuntimePlugin,
  textResult,
  type ToolDefinition,
  type ToolResult,
} from "../../core/mod.ts";
import { MEMORY_NAME, MemoryStore, syncStores } from "./store.ts";

/** The configuration of `memory`. */
export interface MemoryConfig {
  /** Where entries live (absolute). */
  dir: string;
  /** Background sync with another directory (a shared or mounted one). */
  sync?: { dir: string; intervalSeconds: number };
  /** Most entries listed in the prompt index (default 50). */
  indexLimit: number;
}

function buildConfigSchema() {
  const abs = z.string().refine(isAbsolute, "must be an absolute path");
  return z.object({
    dir: abs.optional(),
    sync: z.object({ dir: abs, intervalSeconds: z.number().positive().optional() }).strict()
      .optional(),
    indexLimit: z.number().int().positive().optional(),
  }).strict();
}
let configSchema: ReturnType<typeof buildConfigSchema> | undefined;
/** The configuration's schema, built on first use. */
const schema = () => configSchema ??= buildConfigSchema();

const INPUT = {
  type: "object",
  properties: {
    action: { type: "string", enum: ["save", "read", "delete", "list"] },
    name: { type: "string", description: "entry name: lowercase letters, digits, _ -" },
    description: { type: "string", description: "one line shown in the memory index (save)" },
    content: { type: "string", description: "the entry's content (save)" },
  },
  required: ["action"],
};

/** The `memory` runtime plugin; `home` is HARNESS_HOME. */
export function memoryPlugin(deps: { home: string }): RuntimePlugin<MemoryConfig> {
  return {
    id: "memory",
    version: "1.0.0",
    apiVersion: 1,
    parseConfig(raw) {
      const given = raw ?? {};
      // the default (no configuration, or `{}`) is valid as it is: no schema is built for it
      let data: z.infer<ReturnType<typeof buildConfigSchema>> = {};
      if (typeof given !== "object" || Array.isArray(given) || Object.keys(given).length > 0) {
        const r = schema().safeParse(given);
        if (!r.success) throw new Error(r.error.issues[0].message);
        data = r.data;
      }
      return {
        dir: data.dir ?? join(deps.home, "memory"),
        sync: data.sync
          ? { dir: data.sync.dir, intervalSeconds: data.sync.intervalSeconds ?? 300 }
          : undefined,
        indexLimit: data.indexLimit ?? 50,
      };
    },
    setup(ctx) {
      const store = new MemoryStore(ctx.config.dir);
      ctx.tools.register(memoryTool(store));
      ctx.prompts.register({
        id: "memory",
        order: 60,
        render() {
          const all = store.list();
          if (all.length === 0) return "";
          const shown = all.slice(0, ctx.config.indexLimit);
          const more = all.length - shown.length;
          return [
            "Your long-term memory (read an entry with the `memory` tool before relying on it):",
            "<memory-index>",
            ...shown.map((e) => `- ${e.name}: ${e.description}`),
            ...(more > 0 ? [`- … ${more} more (memory list)`] : []),
            "</memory-index>",
          ].join("\n");
        },
      });
      ctx.pages.register({
        id: "memory",
        title: "Memory",
        description: "Long-term memory entries",
        actions: [{ name: "delete", label: "Delete" }],
        read: () => ({
          dir: store.dir,
          sync: ctx.config.sync?.dir ?? null,
          entries: store.list().map((e) => ({
            name: e.name,
            description: e.description,
            updated: new Date(e.updated).toISOString(),
          })),
        }),
        action(name, args) {
          const n = (args as { name?: unknown })?.name;
          if (name !== "delete" || typeof n !== "string") throw new Error("bad action");
          return { deleted: store.delete(n) } as Json;
        },
      });
      if (ctx.config.sync) syncInBackground(ctx, store, ctx.config.sync);
    },
  };
}

/** The `memory` tool over a store: save, read, delete and list entries. */
function memoryTool(store: MemoryStore): ToolDefinition {
  return {
    name: "memory",
    description:
      "Long-term memory across sessions: save an entry (name, one-line description, content), read one, delete one, or list them. The index of entries is in your system prompt.",
    describe: "save, read, delete and list long-term memory entries",
    inputSchema: INPUT,
    sessionLocal: false,
    execute(input) {
      try {
        return Promise.resolve(memoryAction(store, (input ?? {}) as Record<string, unknown>));
      } catch (err) {
        return Promise.resolve(textResult(`error: ${(err as Error).message}`, true));
      }
    },
  };
}

/** One call of the `memory` tool (a wrong input throws). */
function memoryAction(store: MemoryStore, i: Record<string, unknown>): ToolResult {
  const name = typeof i.name === "string" ? i.name : "";
  const need = () => {
    if (!MEMORY_NAME.test(name)) {
      throw new Error(`"name" must be 1-64 lowercase letters, digits, _ or -`);
    }
  };
  switch (i.action) {
    case "save": {
      need();
      if (typeof i.content !== "string") throw new Error(`"content" is required`);
      const desc = typeof i.description === "string" ? i.description : "";
      store.put(name, desc, i.content);
      return textResult(`saved memory "${name}"`);
    }
    case "read": {
      need();
      const e = store.get(name);
      return e ? textResult(e.content) : textResult(`error: no memory "${name}"`, true);
    }
    case "delete":
      need();
      return store.delete(name)
        ? textResult(`deleted memory "${name}"`)
        : textResult(`error: no memory "${name}"`, true);
    case "list": {
      const all = store.list();
      return textResult(
        all.length ? all.map((e) => `${e.name}: ${e.description}`).join("\n") : "(no memories)",
      );
    }
    default:
      throw new Error(`"action" must be save, read, delete or list`);
  }
}

/** Syncs the store with another directory at start, every interval, and at dispose. */
function syncInBackground(
  ctx: PluginContext<MemoryConfig>,
  store: MemoryStore,
  sync: NonNullable<MemoryConfig["sync"]>,
): void {
  const other = new MemoryStore(sync.dir);
  const once = () => {
    try {
      const n = syncStores(store, other);
      if (n) ctx.logger.info(`synced ${n} memory entries with ${sync.dir}`);
    } catch (err) {
      ctx.logger.warn(`memory sync with ${sync.dir} failed (${(err as Error).name})`);
    }
  };
  let timer: ReturnType<typeof setTimeout> | undefined;
  const loop = () => {
    timer = setTimeout(() => {
      once();
      if (!ctx.signal.aborted) loop();
    }, sync.intervalSeconds * 1000);
  };
  ctx.onStart(() => {
    once();
    loop();
  });
  ctx.onDispose(() => {
    clearTimeout(timer);
    once();
  });
}
