/**
 * The built-in hooks of the turn stages (start, assemble, send, receive,
 * tool_exec, tool_done, error), in-process, under the reference names so that
 * a same-basename executable in `.harness/hooks.d/<stage>/` replaces one.
 * Each is a named function with what it receives and returns; they are
 * registered by the "core" plugin like any plugin's hooks.
 *
 * @module
 */
import { type AssistantTurn, HarnessError } from "../base/mod.ts";
import { skillCatalog } from "../skills/mod.ts";
import { type StageHook, stageHook, type TurnContext } from "./stage.ts";
import { toolCallCapError, ToolCallWatch } from "./tool_cap.ts";
import { dispatchedResult } from "./tool_dispatch.ts";
import type { ToolCall } from "./turn_host.ts";
import { str } from "./values.ts";

type Json = Record<string, unknown>;

/** Output text of an assistant turn. */
function outputText(turn: AssistantTurn): string {
  return turn.blocks.filter((b) => b.type === "text").map((b) => (b as { text: string }).text).join(
    "",
  );
}

/**
 * `start/10-init`.
 * Receives: the turn's first JSON (empty).
 * Returns: it, with `next_state: "assemble"`.
 */
export function startInit(input: Json): Promise<Json> {
  return Promise.resolve({ ...input, next_state: "assemble" });
}

/**
 * `assemble/10-messages`.
 * Receives: the request being assembled.
 * Returns: it with `messages`: the session's context in the protocol's shape (compacted
 * messages replaced by their summary).
 */
export function assembleMessages(input: Json, ctx: TurnContext): Promise<Json> {
  const t = ctx.turn;
  t.session.refresh(false);
  return Promise.resolve({ ...input, messages: t.adapter().buildMessages(t.session.context()) });
}

/**
 * `assemble/20-tools`.
 * Receives: the request being assembled.
 * Returns: it with `tools`: the round's tool schemas in the protocol's shape (the neutral
 * `{name, description, input_schema}` for a reference-style executable provider).
 */
export async function assembleTools(input: Json, ctx: TurnContext): Promise<Json> {
  const t = ctx.turn;
  const schemas = await t.toolSchemas();
  // An executable provider written for the reference gets the neutral shape its
  // assemble/20-tools gives (it converts them itself); one that declares `protocol=` in
  // --defaults gets that protocol's shape.
  const mp = t.modelProvider() as { kind?: string; nativeTools?: () => Promise<boolean> };
  if (mp.kind === "executable" && !(await mp.nativeTools?.())) {
    return { ...input, tools: schemas };
  }
  return { ...input, tools: t.adapter().buildTools(schemas) };
}

/**
 * `assemble/30-prompts`.
 * Receives: the request being assembled.
 * Returns: it with `system` (the prompt sections, then the notes left for the context) and
 * `next_state: "send"`.
 */
export async function assemblePrompts(input: Json, ctx: TurnContext): Promise<Json> {
  const t = ctx.turn;
  const parts = (await t.systemParts()).filter((p) => p.trim() !== "");
  const notes = t.continuation.takeContext();
  if (notes.length) parts.push(notes.join("\n\n"));
  return { ...input, system: parts.join("\n\n"), next_state: "send" };
}

/**
 * `assemble/35-skills`.
 * Receives: the assembled request.
 * Returns: it with the skills catalog appended to `system` (unchanged when no skill).
 */
export async function assembleSkills(input: Json, ctx: TurnContext): Promise<Json> {
  const block = skillCatalog(await ctx.turn.skills());
  if (!block) return input;
  const system = str(input.system);
  return { ...input, system: system ? `${system}\n\n${block}` : block };
}

/**
 * `send/10-send`.
 * Receives: the assembled request (`messages`, `tools`, `system`, `model`).
 * Returns: the provider's native response, with `next_state: "receive"`.
 */
export async function sendRequest(input: Json, ctx: TurnContext): Promise<Json> {
  const t = ctx.turn;
  const payload: Json = { ...input, model: str(input.model) || t.model };
  delete payload.next_state;
  t.session.resetStream();
  // past the tool-call cap the stream is not read on (receive refuses a whole response)
  const watch = new ToolCallWatch(t.limits, t.provider, t.signal);
  const native = await t.modelProvider().send(payload as never, t.model, {
    emit: watch.forward((e) => t.emit(e)),
    signal: watch.signal,
    session: { dir: t.session.dir, cwd: t.session.conf.cwd },
  }).catch((err) => {
    throw watch.over && !t.signal.aborted ? watch.over : err;
  });
  if (typeof native !== "object" || native === null || Array.isArray(native)) {
    throw new HarnessError(`provider ${t.provider} returned a response that is not a JSON object`);
  }
  return { ...(native as Json), next_state: "receive" };
}

/**
 * `receive/10-save`.
 * Receives: the provider's native response.
 * Returns: `{next_state: "tool_exec", tool_calls}` when the model called tools, else
 * `assemble` (a note asks for another round) or `done` with `output`; `usage` and `model`
 * ride along for observers after it (receive/20-cost). Saves the assistant message.
 */
export function receiveSave(input: Json, ctx: TurnContext): Promise<Json> {
  const t = ctx.turn;
  const native = { ...input };
  delete native.next_state;
  const turn = t.adapter().parseResponse(native);
  t.noteUsage(turn.usage);
  // a response over the tool-call cap is refused whole: nothing saved, nothing runs
  const over = toolCallCapError(
    turn.blocks.filter((b) => b.type === "tool_call").length,
    t.limits,
    t.provider,
  );
  if (over) throw over;
  const seq = t.session.appendAssistant(turn.blocks, {
    model: turn.model || t.model,
    provider: t.provider,
    stop: turn.stop,
    usage: turn.usage,
  });
  t.session.streamEvent({ type: "stop", reason: turn.stop, seq: String(seq).padStart(4, "0") });
  const calls: ToolCall[] = turn.blocks.flatMap((b) =>
    b.type === "tool_call" ? [{ id: b.id, name: b.name, input: b.input }] : []
  );
  const usage = turn.usage;
  const model = turn.model || t.model;
  if (calls.length > 0) {
    return Promise.resolve({ next_state: "tool_exec", tool_calls: calls, usage, model });
  }
  if (t.continuation.shouldContinue()) {
    return Promise.resolve({ next_state: "assemble", usage, model });
  }
  return Promise.resolve({ next_state: "done", output: outputText(turn), usage, model });
}

/**
 * `tool_exec/10-exec`.
 * Receives: `{tool_calls}` (the queue), or a call a gate before it answered
 * (`call_id` and `result`).
 * Returns: the first call with its `result` and `error`, the rest as `tool_calls`, and
 * `next_state: "tool_done"` (an empty queue: `assemble`). The call goes through the effect
 * seam; a result a dispatching send hook left is used instead of running it again.
 */
export async function toolExec(input: Json, ctx: TurnContext): Promise<Json> {
  const t = ctx.turn;
  // A gate before us may have answered the call itself (without running it).
  if (typeof input.call_id === "string" && "result" in input) {
    return { ...input, next_state: "tool_done" };
  }
  const queue = Array.isArray(input.tool_calls) ? input.tool_calls as ToolCall[] : [];
  if (queue.length === 0) return { next_state: "assemble" };
  const [call, ...rest] = queue;
  // a dispatching send hook (the reference's) may have run it already
  const dispatched = dispatchedResult(t.session.dir, str(call?.id));
  const { result, error } = await t.executeTool({
    id: str(call?.id),
    name: str(call?.name),
    input: call?.input ?? {},
  }, dispatched);
  return {
    call_id: str(call?.id),
    name: str(call?.name),
    input: call?.input ?? {},
    result,
    error,
    tool_calls: rest,
    next_state: "tool_done",
  };
}

/**
 * `tool_done/10-save`.
 * Receives: one call's `call_id`, `name`, `input`, `result`, `error` and the rest of the
 * queue as `tool_calls`.
 * Returns: `{next_state: "tool_exec", tool_calls}` while calls remain, else
 * `{next_state: "assemble"}`. Saves the result (a JSON result as its text) and reports it.
 */
export function toolDoneSave(input: Json, ctx: TurnContext): Promise<Json> {
  const t = ctx.turn;
  const result = typeof input.result === "string"
    ? input.result
    : JSON.stringify(input.result ?? "");
  const call = { id: str(input.call_id), name: str(input.name), input: input.input };
  const error = input.error === true;
  const seq = t.session.appendToolResult(call.id, call.name, error, result);
  t.noteResult(call, result, error, seq);
  const rest = Array.isArray(input.tool_calls) ? input.tool_calls : [];
  if (rest.length > 0) return Promise.resolve({ next_state: "tool_exec", tool_calls: rest });
  return Promise.resolve({ next_state: "assemble" });
}

/**
 * `error/10-display`.
 * Receives: `{error}` (the failure routed here).
 * Returns: `{output: "error: <message>"}`; the message goes to `.stream` and as an event.
 */
export function errorDisplay(input: Json, ctx: TurnContext): Promise<Json> {
  const t = ctx.turn;
  const msg = str(input.error) || "hook pipeline failed (see HARNESS_LOG)";
  t.session.streamEvent({ type: "error", message: msg });
  t.emit({ type: "error", message: msg });
  return Promise.resolve({ output: `error: ${msg}` });
}

/** The loop's built-in hooks, in chain order per stage. */
export const loopHooks: StageHook[] = [
  stageHook({ stage: "start", name: "10-init", run: startInit }),
  stageHook({ stage: "assemble", name: "10-messages", run: assembleMessages }),
  stageHook({ stage: "assemble", name: "20-tools", run: assembleTools }),
  stageHook({ stage: "assemble", name: "30-prompts", run: assemblePrompts }),
  stageHook({ stage: "assemble", name: "35-skills", run: assembleSkills }),
  stageHook({ stage: "send", name: "10-send", run: sendRequest }),
  stageHook({ stage: "receive", name: "10-save", run: receiveSave }),
  stageHook({ stage: "tool_exec", name: "10-exec", run: toolExec }),
  stageHook({ stage: "tool_done", name: "10-save", run: toolDoneSave }),
  stageHook({ stage: "error", name: "10-display", run: errorDisplay }),
];
