/**
 * What `hs packs test` feeds the model's side of a turn: a test script (the scripted
 * provider's script format — plugins/scripted/ — with a user `message` and an `expect`
 * section), or the model turns a session recorded (a cassette). Both become {@link Cassette}:
 * the user turns to run, each with the model answers to give, in order.
 *
 * @module
 */
import { z } from "zod";
import { HarnessError } from "../base/mod.ts";
import { firstUse } from "../early/mod.ts";
import type { AssistantBlock, ConversationMessage } from "../contracts/mod.ts";

/** One model answer: its blocks, in order. */
export interface CassetteAnswer {
  blocks: AssistantBlock[];
  stop?: string;
}

/** One user turn: the message sent, the model answers it is given. */
export interface CassetteTurn {
  message: string;
  answers: CassetteAnswer[];
}

/** An expectation on one tool call or one turn (see docs/packs.md, "Testing a pack"). */
export interface Expectation {
  /** The call: its 1-based number over the whole test, or the model's call id. */
  call?: number | string;
  /** Or the user turn (1-based): whether its start was refused, by which guard, why. */
  turn?: number;
  tool?: string;
  outcome?: "allowed" | "rewritten" | "refused" | "failed";
  /** The guard that decided it (its id, or its id's last part). */
  guard?: string;
  /** Text the refusal (or retry) reason contains. */
  reason?: string;
  /** Fields the input that reached the floor holds (a rewrite's new value). */
  input?: Record<string, unknown>;
  /** Text the final result contains. */
  result?: string;
  /** Hooks (id or its last part) that observed the call. */
  hooks?: string[];
}

/** What a test runs: its turns and what it expects. */
export interface Cassette {
  /** Where it came from (a file, a session directory), for messages. */
  source: string;
  turns: CassetteTurn[];
  expect: Expectation[];
}

/**
 * A test script's shapes, built when a script is first read (only `hs packs test` reads one):
 * a turn of the scripted provider's format (plugins/scripted/types.ts, without `expect`), an
 * expectation, the whole file.
 */
const schemas = firstUse(() => {
  const toolCall = z.object({ id: z.string().optional(), name: z.string(), input: z.unknown() })
    .strict();

  const scriptedTurn = z.object({
    text: z.string().optional(),
    thinking: z.object({ text: z.string(), signature: z.string() }).optional(),
    toolCalls: z.array(toolCall).optional(),
    stop: z.string().optional(),
    usage: z.unknown().optional(),
    chunkSize: z.number().optional(),
    delayMs: z.number().optional(),
    repeat: z.number().int().min(1).optional(),
    fault: z.unknown().optional(),
  }).strict();

  const expectation = z.object({
    call: z.union([z.number().int().min(1), z.string().min(1)]).optional(),
    turn: z.number().int().min(1).optional(),
    tool: z.string().optional(),
    outcome: z.enum(["allowed", "rewritten", "refused", "failed"]).optional(),
    guard: z.string().optional(),
    reason: z.string().optional(),
    input: z.record(z.string(), z.unknown()).optional(),
    result: z.string().optional(),
    hooks: z.array(z.string()).optional(),
  }).strict().refine((e) => (e.call === undefined) !== (e.turn === undefined), {
    message: 'an expectation names one "call" (a number or a call id) or one "turn" (a number)',
  });

  const testFile = z.union([
    z.array(scriptedTurn),
    z.object({
      message: z.string().optional(),
      turns: z.array(scriptedTurn),
      expect: z.array(expectation).optional(),
    }).strict(),
  ]);
  return { scriptedTurn, testFile };
});

/** One model turn of a test script. */
type ScriptedTurn = z.infer<ReturnType<typeof schemas>["scriptedTurn"]>;

/** The user message of a script that names none. */
export const DEFAULT_MESSAGE = "(hs packs test)";

const EXAMPLE = `{"message": "…", "turns": [{"toolCalls": [{"name": "bash", "input": ` +
  `{"command": "ls"}}]}], "expect": [{"call": 1, "outcome": "allowed"}]}`;

/** Parses a test script's text; a bad file is an error naming the file and what was expected. */
export function parseTestScript(text: string, path: string): Cassette {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    throw new HarnessError(
      `${path}: not valid JSON (${(err as Error).message})`,
      `a test script is a JSON array of model turns or an object like ${EXAMPLE}`,
    );
  }
  const res = schemas().testFile.safeParse(raw);
  if (!res.success) {
    const issue = deepestIssue(res.error.issues, raw);
    throw new HarnessError(
      `${path}: invalid test script at ${issue.path.join(".") || "(root)"}: ${issue.message}`,
      `expected a JSON array of model turns or an object like ${EXAMPLE}`,
    );
  }
  const data = Array.isArray(res.data) ? { turns: res.data } : res.data;
  const answers: CassetteAnswer[] = [];
  data.turns.forEach((t, i) => {
    if (t.fault !== undefined) {
      throw new HarnessError(
        `${path}: turns.${i}.fault: a fault has no meaning without a wire`,
        "remove it: hs packs test feeds the model's answers to the loop directly",
      );
    }
    for (let n = 0; n < (t.repeat ?? 1); n++) answers.push(answerOf(t));
  });
  return {
    source: path,
    turns: [{ message: (data as { message?: string }).message ?? DEFAULT_MESSAGE, answers }],
    expect: (data as { expect?: Expectation[] }).expect ?? [],
  };
}

/** The issue to report: in a union, the branch whose shape (array or object) the file has. */
function deepestIssue(
  issues: z.ZodIssue[],
  raw: unknown,
): { path: PropertyKey[]; message: string } {
  const first = issues[0];
  if (first.code !== "invalid_union") return first;
  const branches = (first as unknown as { errors?: z.ZodIssue[][] }).errors ??
    ((first as unknown as { unionErrors?: { issues: z.ZodIssue[] }[] }).unionErrors ?? [])
      .map((e) => e.issues);
  const branch = branches[Array.isArray(raw) ? 0 : 1];
  const inner = branch?.[0];
  return inner ?? first;
}

let generated = 0;

function answerOf(t: ScriptedTurn): CassetteAnswer {
  const blocks: AssistantBlock[] = [];
  if (t.thinking) blocks.push({ type: "thinking", ...t.thinking });
  if (t.text !== undefined) blocks.push({ type: "text", text: t.text });
  for (const c of t.toolCalls ?? []) {
    blocks.push({
      type: "tool_call",
      id: c.id ?? `toolu_test_${++generated}`,
      name: c.name,
      input: c.input ?? {},
    });
  }
  return { blocks, ...(t.stop ? { stop: t.stop } : {}) };
}

/**
 * The cassette of a session's recorded messages: each user message starts a turn whose answers
 * are the assistant messages recorded after it (a compaction's summary is context, not a turn).
 */
export function sessionCassette(messages: ConversationMessage[], dir: string): Cassette {
  const turns: CassetteTurn[] = [];
  for (const m of messages) {
    if (m.role === "user" && !m.summary) turns.push({ message: m.text, answers: [] });
    else if (m.role === "assistant" && turns.length) {
      turns.at(-1)!.answers.push({ blocks: m.blocks, ...(m.stop ? { stop: m.stop } : {}) });
    }
  }
  const answered = turns.filter((t) => t.answers.length);
  if (answered.length === 0) {
    throw new HarnessError(
      `${dir}: the session recorded no model turn to replay`,
      "replay a session with at least one answered message (hs session list)",
    );
  }
  return { source: dir, turns: answered, expect: [] };
}
