/**
 * zod schema of a JSON script file (`ScriptedTurn` without `expect`).
 *
 * @module
 */
import { z } from "zod";
import type { ScriptedTurn } from "./types.ts";

const usage = z.object({
  input_tokens: z.number().int().min(0),
  output_tokens: z.number().int().min(0),
  cache_read_input_tokens: z.number().int().min(0).optional(),
  cache_creation_input_tokens: z.number().int().min(0).optional(),
});

const fault = z.discriminatedUnion("kind", [
  z.object({
    kind: z.literal("status"),
    status: z.number().int().min(100).max(599),
    body: z.string().optional(),
    retryAfter: z.string().optional(),
  }),
  z.object({ kind: z.literal("drop-mid-stream") }),
  z.object({ kind: z.literal("error-event") }),
  z.object({ kind: z.literal("malformed-json") }),
]);

const turn = z.object({
  text: z.string().optional(),
  thinking: z.object({ text: z.string(), signature: z.string() }).optional(),
  toolCalls: z.array(z.object({ id: z.string().optional(), name: z.string(), input: z.unknown() }))
    .optional(),
  stop: z.string().optional(),
  usage: usage.optional(),
  chunkSize: z.number().int().min(1).optional(),
  delayMs: z.number().min(0).optional(),
  fault: fault.optional(),
  repeat: z.number().int().min(1).optional(),
}).strict();

/** A script file: an array of turns, or `{"turns": [...]}`. */
export const scriptFileSchema = z.union([z.array(turn), z.object({ turns: z.array(turn) })]);

/** Parses a JSON script file's text; throws an Error naming `path` on a bad file. */
export function parseScript(text: string, path: string): ScriptedTurn[] {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    throw new Error(`${path}: not valid JSON (${(err as Error).message})`);
  }
  const res = scriptFileSchema.safeParse(raw);
  if (!res.success) {
    const issue = res.error.issues[0];
    throw new Error(
      `${path}: invalid script at ${issue.path.join(".") || "(root)"}: ${issue.message}`,
    );
  }
  return (Array.isArray(res.data) ? res.data : res.data.turns) as ScriptedTurn[];
}
