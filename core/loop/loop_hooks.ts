/**
 * The built-in hooks of the turn stages (start, assemble, send, receive,
 * tool_exec, tool_done, error), in-process, under the reference names so that
 * a same-basename executable in `.harness/hooks.d/<stage>/` replaces one.
 * They are registered by the "core" plugin like any plugin's hooks.
 *
 * @module
 */
import { type AssistantTurn, HarnessError } from "../base/mod.ts";
import { skillCatalog } from "../skills/mod.ts";
import { type StageHook, stageHook } from "./stage.ts";
import { toolCallCapError, ToolCallWatch } from "./tool_cap.ts";
import { dispatchedResult } from "./tool_dispatch.ts";
import type { ToolCall } from "./turn_host.ts";
import { str } from "./values.ts";

/** Output text of an assistant turn. */
function outputText(turn: AssistantTurn): string {
  return turn.blocks.filter((b) => b.type === "text").map((b) => (b as { text: string }).text).join(
    "",
  );
}

/** The loop's built-in hooks. */
export const loopHooks: StageHook[] = [
  stageHook({
    stage: "start",
    name: "10-init",
    run(input) {
      return Promise.resolve({ ...input, next_state: "assemble" });
    },
  }),
  stageHook({
    stage: "assemble",
    name: "10-messages",
    run(input, ctx) {
      const t = ctx.turn;
      t.session.refresh(false);
      // the context: compacted messages are replaced by their summary
      return Promise.resolve({
        ...input,
        messages: t.adapter().buildMessages(t.session.context()),
      });
    },
  }),
  stageHook({
    stage: "assemble",
    name: "20-tools",
    async run(input, ctx) {
      const t = ctx.turn;
      const schemas = await t.toolSchemas();
      // An executable provider written for the reference gets the neutral
      // `{name, description, input_schema}` shape its assemble/20-tools gives (it converts
      // them itself); one that declares `protocol=` in --defaults gets that protocol's shape.
      const mp = t.modelProvider() as { kind?: string; nativeTools?: () => Promise<boolean> };
      if (mp.kind === "executable" && !(await mp.nativeTools?.())) {
        return { ...input, tools: schemas };
      }
      return { ...input, tools: t.adapter().buildTools(schemas) };
    },
  }),
  stageHook({
    stage: "assemble",
    name: "30-prompts",
    async run(input, ctx) {
      const t = ctx.turn;
      const parts = (await t.systemParts()).filter((p) => p.trim() !== "");
      const notes = t.continuation.takeContext();
      if (notes.length) parts.push(notes.join("\n\n"));
      return { ...input, system: parts.join("\n\n"), next_state: "send" };
    },
  }),
  stageHook({
    stage: "assemble",
    name: "35-skills",
    async run(input, ctx) {
      const block = skillCatalog(await ctx.turn.skills());
      if (!block) return input;
      const system = str(input.system);
      return { ...input, system: system ? `${system}\n\n${block}` : block };
    },
  }),
  stageHook({
    stage: "send",
    name: "10-send",
    async run(input, ctx) {
      const t = ctx.turn;
      const payload: Record<string, unknown> = { ...input, model: str(input.model) || t.model };
      delete payload.next_state;
      t.session.resetStream();
      // past the tool-call cap the stream is not read on (receive refuses a whole response)
      const watch = new ToolCallWatch(t.limits, t.provider, t.signal);
      const native = await t.modelProvider().send(
        payload as never,
        t.model,
        {
          emit: watch.forward((e) => t.emit(e)),
          signal: watch.signal,
          session: { dir: t.session.dir, cwd: t.session.conf.cwd },
        },
      ).catch((err) => {
        throw watch.over && !t.signal.aborted ? watch.over : err;
      });
      if (typeof native !== "object" || native === null || Array.isArray(native)) {
        throw new HarnessError(
          `provider ${t.provider} returned a response that is not a JSON object`,
        );
      }
      return { ...(native as Record<string, unknown>), next_state: "receive" };
    },
  }),
  stageHook({
    stage: "receive",
    name: "10-save",
    run(input, ctx) {
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
      // `usage` and `model` ride along so that observers after 10-save (receive/20-cost) see them.
      const usage = turn.usage;
      const model = turn.model || t.model;
      if (calls.length > 0) {
        return Promise.resolve({ next_state: "tool_exec", tool_calls: calls, usage, model });
      }
      if (t.continuation.shouldContinue()) {
        return Promise.resolve({ next_state: "assemble", usage, model });
      }
      return Promise.resolve({ next_state: "done", output: outputText(turn), usage, model });
    },
  }),
  stageHook({
    stage: "tool_exec",
    name: "10-exec",
    async run(input, ctx) {
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
    },
  }),
  stageHook({
    stage: "tool_done",
    name: "10-save",
    run(input, ctx) {
      const t = ctx.turn;
      const result = typeof input.result === "string"
        ? input.result
        : JSON.stringify(input.result ?? "");
      t.noteResult(
        { id: str(input.call_id), name: str(input.name), input: input.input },
        result,
        input.error === true,
      );
      const seq = t.session.appendToolResult(
        str(input.call_id),
        str(input.name),
        input.error === true,
        result,
      );
      t.session.streamEvent({
        type: "tool_done",
        id: str(input.call_id),
        name: str(input.name),
        seq: String(seq).padStart(4, "0"),
        error: String(input.error === true),
      });
      const rest = Array.isArray(input.tool_calls) ? input.tool_calls : [];
      if (rest.length > 0) return Promise.resolve({ next_state: "tool_exec", tool_calls: rest });
      return Promise.resolve({ next_state: "assemble" });
    },
  }),
  stageHook({
    stage: "error",
    name: "10-display",
    run(input, ctx) {
      const t = ctx.turn;
      const msg = str(input.error) || "hook pipeline failed (see HARNESS_LOG)";
      t.session.streamEvent({ type: "error", message: msg });
      t.emit({ type: "error", message: msg });
      return Promise.resolve({ output: `error: ${msg}` });
    },
  }),
];
