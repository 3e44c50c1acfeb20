/**
 * What `hs acp` shows the editor, as pure functions: a tool call's ACP kind and title, the
 * user's message from ACP content blocks, the updates that replay a stored conversation
 * (`session/load`) and those that follow a running turn's events (`session/prompt`).
 *
 * @module
 */
import { isAbsolute, resolve } from "../../core/early/mod.ts";
import type * as Acp from "@agentclientprotocol/sdk";
import type { ConversationMessage, HarnessEvent, MessageImage } from "../../core/mod.ts";

type SessionUpdate = Acp.SessionUpdate;
type ToolKind = Acp.ToolKind;

/** The ACP tool kind and a title for a call (what the editor shows). */
export function describeCall(
  name: string,
  input: unknown,
  cwd: string,
): { kind: ToolKind; title: string; locations?: { path: string }[] } {
  const i = (input ?? {}) as Record<string, unknown>;
  const path = typeof i.path === "string"
    ? (isAbsolute(i.path) ? i.path : resolve(cwd, i.path))
    : "";
  const at = path ? { locations: [{ path }] } : {};
  switch (name) {
    case "bash":
      return { kind: "execute", title: String(i.command ?? "bash").split("\n")[0].slice(0, 120) };
    case "read_file":
      return { kind: "read", title: `Read ${i.path ?? ""}`, ...at };
    case "write_file":
      return { kind: "edit", title: `Write ${i.path ?? ""}`, ...at };
    case "edit_file":
      return { kind: "edit", title: `Edit ${i.path ?? ""}`, ...at };
    case "skill":
      return { kind: "read", title: `Skill ${i.name ?? ""}` };
    case "agent":
      return { kind: "think", title: "Sub-agent" };
    default:
      return { kind: "other", title: name, ...at };
  }
}

/** The user's message from ACP content blocks (text, resource links, embedded resources). */
export function promptText(blocks: Acp.ContentBlock[]): string {
  const parts: string[] = [];
  for (const b of blocks) {
    if (b.type === "text") parts.push(b.text);
    else if (b.type === "resource_link") parts.push(`@${b.uri}`);
    else if (b.type === "resource") {
      const r = b.resource as { uri: string; text?: string };
      parts.push(
        typeof r.text === "string"
          ? `<context uri="${r.uri}">\n${r.text}\n</context>`
          : `@${r.uri}`,
      );
    }
  }
  return parts.join("\n");
}

/** A prompt's image blocks, as a run's images (checked by the harness). */
export function promptImages(blocks: Acp.ContentBlock[]): MessageImage[] {
  return blocks.flatMap((b) =>
    b.type === "image" ? [{ mimeType: b.mimeType as MessageImage["mimeType"], data: b.data }] : []
  );
}

/** A text content block. */
export const text = (t: string) => ({ type: "text" as const, text: t });

/** The updates that replay a stored conversation (`session/load`). */
export function replayUpdates(messages: ConversationMessage[], cwd: string): SessionUpdate[] {
  const out: SessionUpdate[] = [];
  for (const m of messages) {
    if (m.role === "user") {
      for (const i of m.images ?? []) {
        out.push({
          sessionUpdate: "user_message_chunk",
          content: { type: "image", mimeType: i.mimeType, data: i.data },
        });
      }
      out.push({ sessionUpdate: "user_message_chunk", content: text(m.text) });
    } else if (m.role === "assistant") {
      for (const b of m.blocks) {
        if (b.type === "text") {
          out.push({ sessionUpdate: "agent_message_chunk", content: text(b.text) });
        } else if (b.type === "thinking") {
          out.push({ sessionUpdate: "agent_thought_chunk", content: text(b.text) });
        } else {
          out.push({
            sessionUpdate: "tool_call",
            toolCallId: b.id,
            status: "pending",
            rawInput: b.input,
            ...describeCall(b.name, b.input, cwd),
          });
        }
      }
    } else {
      out.push({
        sessionUpdate: "tool_call_update",
        toolCallId: m.callId,
        status: m.error ? "failed" : "completed",
        content: [{ type: "content", content: text(m.text) }],
      });
    }
  }
  return out;
}

/**
 * The updates that follow a turn's events: text and thinking as message and thought chunks,
 * a tool call announced once (pending when the model asks, in progress when it starts) and
 * then completed or failed with its result. `onToolStart` hears the call that runs now.
 */
export function turnUpdates(
  cwd: string,
  send: (update: SessionUpdate) => void,
  onToolStart: (id: string) => void,
): (e: HarnessEvent) => void {
  const announced = new Set<string>();
  return (e) => {
    if (e.type === "text" && e.text) {
      send({ sessionUpdate: "agent_message_chunk", content: text(e.text) });
    } else if (e.type === "thinking" && e.text) {
      send({ sessionUpdate: "agent_thought_chunk", content: text(e.text) });
    } else if (e.type === "tool_call_end" || e.type === "tool_start") {
      if (e.type === "tool_start") onToolStart(e.id);
      if (announced.has(e.id)) {
        send({ sessionUpdate: "tool_call_update", toolCallId: e.id, status: "in_progress" });
        return;
      }
      announced.add(e.id);
      send({
        sessionUpdate: "tool_call",
        toolCallId: e.id,
        status: e.type === "tool_start" ? "in_progress" : "pending",
        rawInput: e.input,
        ...describeCall(e.name, e.input, cwd),
      });
    } else if (e.type === "tool_done") {
      send({
        sessionUpdate: "tool_call_update",
        toolCallId: e.id,
        status: e.error ? "failed" : "completed",
        content: [{ type: "content", content: text(e.result) }],
      });
    }
  };
}
