/**
 * The built-in stage hooks, in-process, under the reference names so that a
 * same-basename executable in `.harness/hooks.d/<stage>/` replaces one.
 * They are registered by the "core" runtime plugin like any plugin's hooks.
 *
 * @module
 */
import type { StageContext, StageHook } from "../plugins/types.ts";
import type { ResolveApi, ToolCall, TurnApi } from "./turn_host.ts";
import type { AssistantTurn } from "../base/types.ts";
import { HarnessError } from "../base/errors.ts";

const turnOf = (ctx: StageContext) => ctx.loop as TurnApi;
const resolveOf = (ctx: StageContext) => ctx.loop as ResolveApi;

function str(v: unknown): string {
  return typeof v === "string" ? v : "";
}

/** `resolve` hooks: settings, auto-detect, defaults. */
export const resolveHooks: StageHook[] = [
  {
    stage: "resolve",
    name: "10-settings",
    run(input, ctx) {
      const s = resolveOf(ctx).settings();
      let provider = str(input.provider);
      let model = str(input.model);
      const providerWasEmpty = provider === "";
      if (!provider && s.provider) provider = s.provider;
      if (providerWasEmpty && !model && s.model) model = s.model;
      return Promise.resolve({ ...input, provider, model });
    },
  },
  {
    stage: "resolve",
    name: "20-detect",
    async run(input, ctx) {
      if (str(input.provider)) return input;
      const all = await resolveOf(ctx).providers();
      // A model declared by a provider (runtime plugins) selects that provider.
      const owner = str(input.model) && all.find((p) => p.models?.includes(str(input.model)));
      if (owner) return { ...input, provider: owner.name };
      for (const p of all) {
        if (!p.autodetect) continue;
        if ((await p.provider.ready()).ready) return { ...input, provider: p.name };
      }
      throw new HarnessError(
        "no ready provider found — set HARNESS_PROVIDER or run: hs auth set <provider>",
      );
    },
  },
  {
    stage: "resolve",
    name: "30-defaults",
    async run(input, ctx) {
      const provider = str(input.provider);
      if (!provider || str(input.model)) return input;
      const p = (await resolveOf(ctx).providers()).find((x) => x.name === provider);
      const model = p ? (await p.provider.defaultModel()) || p.models?.[0] || "" : "";
      return { ...input, model };
    },
  },
];

/** Output text of an assistant turn. */
function outputText(turn: AssistantTurn): string {
  return turn.blocks.filter((b) => b.type === "text").map((b) => (b as { text: string }).text).join(
    "",
  );
}

/** The loop's built-in hooks. */
export const loopHooks: StageHook[] = [
  {
    stage: "start",
    name: "10-init",
    run(input) {
      return Promise.resolve({ ...input, next_state: "assemble" });
    },
  },
  {
    stage: "assemble",
    name: "10-messages",
    run(input, ctx) {
      const t = turnOf(ctx);
      t.session.refresh(false);
      return Promise.resolve({
        ...input,
        messages: t.adapter().buildMessages(t.session.messages()),
      });
    },
  },
  {
    stage: "assemble",
    name: "20-tools",
    async run(input, ctx) {
      const t = turnOf(ctx);
      return { ...input, tools: t.adapter().buildTools(await t.toolSchemas()) };
    },
  },
  {
    stage: "assemble",
    name: "30-prompts",
    async run(input, ctx) {
      const t = turnOf(ctx);
      const parts = (await t.systemParts()).filter((p) => p.trim() !== "");
      const notes = t.continuation.takeContext();
      if (notes.length) parts.push(notes.join("\n\n"));
      return { ...input, system: parts.join("\n\n"), next_state: "send" };
    },
  },
  {
    stage: "assemble",
    name: "35-skills",
    async run(input, ctx) {
      const { skillCatalog } = await import("../skills/skills.ts");
      const block = skillCatalog(await turnOf(ctx).skills());
      if (!block) return input;
      const system = str(input.system);
      return { ...input, system: system ? `${system}\n\n${block}` : block };
    },
  },
  {
    stage: "send",
    name: "10-send",
    async run(input, ctx) {
      const t = turnOf(ctx);
      const payload: Record<string, unknown> = { ...input, model: str(input.model) || t.model };
      delete payload.next_state;
      t.session.resetStream();
      const native = await t.modelProvider().send(
        payload as never,
        t.model,
        {
          emit: (e) => t.emit(e),
          signal: t.signal,
          session: { dir: t.session.dir, cwd: t.session.conf.cwd },
        },
      );
      if (typeof native !== "object" || native === null || Array.isArray(native)) {
        throw new HarnessError(
          `provider ${t.provider} returned a response that is not a JSON object`,
        );
      }
      return { ...(native as Record<string, unknown>), next_state: "receive" };
    },
  },
  {
    stage: "receive",
    name: "10-save",
    run(input, ctx) {
      const t = turnOf(ctx);
      const native = { ...input };
      delete native.next_state;
      const turn = t.adapter().parseResponse(native);
      t.noteUsage(turn.usage);
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
  },
  {
    stage: "tool_exec",
    name: "10-exec",
    async run(input, ctx) {
      const t = turnOf(ctx);
      // A gate before us may have answered the call itself (without running it).
      if (typeof input.call_id === "string" && "result" in input) {
        return { ...input, next_state: "tool_done" };
      }
      const queue = Array.isArray(input.tool_calls) ? input.tool_calls as ToolCall[] : [];
      if (queue.length === 0) return { next_state: "assemble" };
      const [call, ...rest] = queue;
      const { result, error } = await t.executeTool({
        id: str(call?.id),
        name: str(call?.name),
        input: call?.input ?? {},
      });
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
  },
  {
    stage: "tool_done",
    name: "10-save",
    run(input, ctx) {
      const t = turnOf(ctx);
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
  },
  {
    stage: "error",
    name: "10-display",
    run(input, ctx) {
      const t = turnOf(ctx);
      const msg = str(input.error) || "hook pipeline failed (see HARNESS_LOG)";
      t.session.streamEvent({ type: "error", message: msg });
      t.emit({ type: "error", message: msg });
      return Promise.resolve({ output: `error: ${msg}` });
    },
  },
];
