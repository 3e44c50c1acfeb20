/**
 * The `audit-jsonl` plugin: the JSON-lines sink and its configuration (see mod.ts).
 *
 * @module
 */
import { dirname, firstUse, isAbsolute } from "../../core/early/mod.ts";
import { z } from "zod";
import type { RuntimePlugin } from "../../core/mod.ts";

/** The configuration of `audit-jsonl`. */
export interface JsonlAuditConfig {
  /** Absolute path of the JSONL file. */
  path: string;
  /** Refuse a decision whose record cannot be written (default false: best effort). */
  failClosed?: boolean;
}

/** The plugin's configuration, built when a plugins.json first configures it (it is opt-in). */
const configSchema = firstUse((): z.ZodType<JsonlAuditConfig> =>
  z.object({
    path: z.string().refine(isAbsolute, "path must be absolute"),
    failClosed: z.boolean().optional(),
  }).strict()
);

/** The `audit-jsonl` runtime plugin. */
export const jsonlAuditPlugin: RuntimePlugin<JsonlAuditConfig> = {
  id: "audit-jsonl",
  version: "1.0.0",
  apiVersion: 1,
  parseConfig(raw) {
    const r = configSchema().safeParse(raw);
    if (!r.success) throw new Error(r.error.issues[0].message);
    return r.data;
  },
  async setup(ctx) {
    const { path, failClosed } = ctx.config;
    await Deno.mkdir(dirname(path), { recursive: true });
    const file = await Deno.open(path, { append: true, create: true, mode: 0o600 });
    ctx.onDispose(async () => {
      try {
        await file.syncData();
      } finally {
        file.close();
      }
    });
    const enc = new TextEncoder();
    ctx.audit.registerSink(async (event) => {
      const bytes = enc.encode(JSON.stringify(event) + "\n");
      let off = 0;
      while (off < bytes.length) off += await file.write(bytes.subarray(off));
    }, { failClosed: failClosed === true });
  },
};
