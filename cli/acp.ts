/**
 * `hs acp`: the Agent Client Protocol (ACP v1) on stdin/stdout, for editors such as Zed,
 * built on `@agentclientprotocol/sdk`. Sessions are hs's session directories:
 *
 * - `initialize` advertises `loadSession` and embedded context in prompts;
 * - `session/new` resolves the provider and model and creates a session in the
 *   `HARNESS_SESSIONS` of its `cwd`; `session/load` replays one (user, agent, thought and
 *   tool call updates) so the editor shows the conversation;
 * - `session/prompt` runs one turn: text and thinking stream as agent message and thought
 *   chunks, each tool call is a `tool_call` (pending when the model asks for it) updated to
 *   in progress and then completed or failed with its result;
 * - `session/cancel` cancels the running turn (stop reason `cancelled`);
 * - the effect floor's `ask` becomes `session/request_permission` (allow once, allow
 *   always for this session, reject).
 *
 * One harness per working directory, for the connection's lifetime. Nothing but ACP
 * messages is written to stdout; diagnostics go to stderr and `HARNESS_LOG`.
 *
 * @module
 */
import type { Command } from "@commander-js/extra-typings";
import { isAbsolute, resolve } from "node:path";
import type * as Acp from "@agentclientprotocol/sdk";
import type { Answer, ConversationMessage, HarnessCore, HarnessEvent } from "../core/mod.ts";
import { errorMessage, HarnessError, permissionDenied, VERSION } from "../core/base/mod.ts";
import type { CliContext } from "./base/mod.ts";
import type { CommandContext } from "./harness/mod.ts";
import { floorRequestOf } from "./harness/mod.ts";
import { addRunFlags, type RunFlags } from "./harness/mod.ts";
import { handleTrust } from "./prompts/mod.ts";
import { idOfHead, limitLines, sharedOutput, tooLargeAnswer } from "./acp_limit.ts";

/** Flags of `hs acp`. */
export type AcpFlags = RunFlags;

/** The byte streams ACP runs over (stdin/stdout for `hs acp`). */
export interface AcpIo {
  input: ReadableStream<Uint8Array>;
  output: WritableStream<Uint8Array>;
}

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

const text = (t: string) => ({ type: "text" as const, text: t });

/** The updates that replay a stored conversation (`session/load`). */
export function replayUpdates(messages: ConversationMessage[], cwd: string): SessionUpdate[] {
  const out: SessionUpdate[] = [];
  for (const m of messages) {
    if (m.role === "user") {
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

/** One ACP session: an hs session directory on a harness. */
interface AcpSession {
  id: string;
  cwd: string;
  h: HarnessCore;
  /** The running prompt: to cancel it, to ask the editor for permission. */
  running?: { controller: AbortController; client: Acp.AgentContext; toolCallId?: string };
}

/** Permission options offered for the floor's `ask`. */
const OPTIONS: Acp.PermissionOption[] = [
  { optionId: "allow-once", name: "Allow once", kind: "allow_once" },
  { optionId: "allow-always", name: "Always allow (this session)", kind: "allow_always" },
  { optionId: "reject", name: "Reject", kind: "reject_always" },
];

/** Options offered for a behavior pack's guards waiting for approval. */
const CONSENT_OPTIONS: Acp.PermissionOption[] = [
  { optionId: "approve", name: "Approve (stored, as hs packs approve)", kind: "allow_always" },
  { optionId: "decline", name: "Not now", kind: "reject_once" },
];

/** The floor's answer for a chosen option (a cancelled request denies). */
function answerOf(r: Acp.RequestPermissionResponse): Answer {
  if (r.outcome.outcome !== "selected") return "never";
  return r.outcome.optionId === "allow-once"
    ? "once"
    : r.outcome.optionId === "allow-always"
    ? "always"
    : "never";
}

/** Serves ACP over `io` until the client closes the connection; resolves to the exit code. */
export async function serveAcp(cli: CliContext, flags: AcpFlags, io: AcpIo): Promise<number> {
  const acp = await import("@agentclientprotocol/sdk");
  const { methods, RequestError } = acp;
  const harnesses = new Map<string, Promise<HarnessCore>>();
  const sessions = new Map<string, AcpSession>();

  /** The session whose turn asks now (the most recent tool call of a running turn). */
  const asking = (cwd: string) =>
    [...sessions.values()].filter((s) => s.cwd === cwd && s.running?.toolCallId).at(-1);

  const harnessFor = (cwd: string): Promise<HarnessCore> => {
    if (!isAbsolute(cwd)) throw RequestError.invalidParams({ cwd }, "cwd must be an absolute path");
    let p = harnesses.get(cwd);
    if (!p) {
      p = (async () => {
        const h = await cli.createHarness({
          cwd,
          env: cli.env,
          trustWorkspace: flags.trustWorkspace === true,
          floorRequest: {
            ...floorRequestOf(flags, cli, false),
            asker: async (question) => {
              const s = asking(cwd);
              if (!s?.running) return "never";
              const request: Acp.RequestPermissionRequest = {
                sessionId: s.id,
                toolCall: {
                  toolCallId: s.running.toolCallId!,
                  content: [{ type: "content", content: text(question.trim()) }],
                },
                options: OPTIONS,
              };
              const r: Acp.RequestPermissionResponse = await s.running.client.request(
                methods.client.session.requestPermission,
                request,
              );
              return answerOf(r);
            },
          },
          terminal: false,
        });
        await handleTrust(h, cli);
        await h.catalog.refreshSources();
        return h;
      })();
      harnesses.set(cwd, p);
      p.catch(() => harnesses.delete(cwd));
    }
    return p;
  };

  /** Pack guards the editor declined in this connection (asked again next connection). */
  const declined = new Set<string>();

  /**
   * Behavior packs whose foreground bot has guards waiting for approval: the editor is asked
   * (as a permission request on a "consent" tool call) before the prompt runs; approving
   * stores the approval as `hs packs approve` does, declining leaves the bot detached.
   */
  const askConsent = async (s: AcpSession, client: Acp.AgentContext) => {
    const waiting = s.h.packs.bots().filter((b) =>
      b.spec.attach === "foreground" && b.pending.length &&
      !declined.has(`${b.pack.root}\0${b.spec.name}`)
    );
    for (const b of waiting) {
      const name = `${b.pack.name}/${b.spec.name}`;
      const toolCallId = `consent-${b.pack.name}-${b.spec.name}`;
      const guards = b.pending.map((g) => `- ${g.guard} (${g.point}) at ${g.loc}`).join("\n");
      await client.notify(methods.client.session.update, {
        sessionId: s.id,
        update: {
          sessionUpdate: "tool_call",
          toolCallId,
          title: `Approve the guards of behavior pack ${name}`,
          kind: "other",
          status: "pending",
          content: [{
            type: "content",
            content: text(
              `Behavior pack ${name} declares guards that run on every matching call:\n${guards}`,
            ),
          }],
        },
      });
      const r: Acp.RequestPermissionResponse = await client.request(
        methods.client.session.requestPermission,
        { sessionId: s.id, toolCall: { toolCallId }, options: CONSENT_OPTIONS },
      );
      const yes = r.outcome.outcome === "selected" && r.outcome.optionId === "approve";
      if (yes) await s.h.packs.approve(b);
      else declined.add(`${b.pack.root}\0${b.spec.name}`);
      await client.notify(methods.client.session.update, {
        sessionId: s.id,
        update: {
          sessionUpdate: "tool_call_update",
          toolCallId,
          status: yes ? "completed" : "failed",
          content: [{
            type: "content",
            content: text(
              yes
                ? `approved: ${name} is attached`
                : `not approved: ${name} stays detached (approve later with: hs packs approve ${b.pack.name})`,
            ),
          }],
        },
      });
    }
  };

  const failure = (err: unknown) => {
    if (err instanceof RequestError) return err;
    // a permission this run lacks is said in hs's words, as on the command line
    const e = (permissionDenied(err) ?? err) as HarnessError;
    const hint = e instanceof HarnessError && e.hint ? ` (${e.hint})` : "";
    return RequestError.internalError(undefined, `${errorMessage(e)}${hint}`);
  };

  const app = acp.agent({ name: "hs" })
    .onRequest(methods.agent.initialize, () => ({
      protocolVersion: acp.PROTOCOL_VERSION,
      agentCapabilities: {
        loadSession: true,
        promptCapabilities: { image: false, audio: false, embeddedContext: true },
      },
      agentInfo: { name: "hs", title: "Harness", version: VERSION },
      authMethods: [],
    }))
    .onRequest(methods.agent.session.new, async ({ params }) => {
      try {
        const h = await harnessFor(params.cwd);
        const { provider, model } = await h.catalog.resolve(
          flags.provider ?? h.config.provider,
          flags.model ?? h.config.model,
        );
        const { Session } = await import("../core/session/mod.ts");
        const session = Session.create(h.paths.sessions, { cwd: params.cwd, provider, model });
        sessions.set(session.id, { id: session.id, cwd: params.cwd, h });
        return { sessionId: session.id };
      } catch (err) {
        throw failure(err);
      }
    })
    .onRequest(methods.agent.session.load, async ({ params, client }) => {
      let s: AcpSession;
      try {
        const h = await harnessFor(params.cwd);
        const session = h.runs.openSession(params.sessionId);
        s = { id: session.id, cwd: session.conf.cwd || params.cwd, h };
        for (const update of replayUpdates(session.messages(), s.cwd)) {
          await client.notify(methods.client.session.update, { sessionId: s.id, update });
        }
      } catch (err) {
        if (err instanceof HarnessError && /^no session /.test(err.message)) {
          throw RequestError.sessionNotFound(params.sessionId);
        }
        throw failure(err);
      }
      sessions.set(s.id, s);
      return {};
    })
    .onRequest(methods.agent.session.prompt, async ({ params, client, signal }) => {
      const s = sessions.get(params.sessionId);
      if (!s) throw RequestError.sessionNotFound(params.sessionId);
      if (s.running) {
        throw RequestError.invalidRequest(undefined, "a prompt is already running in this session");
      }
      const controller = new AbortController();
      const onAbort = () => controller.abort();
      signal.addEventListener("abort", onAbort, { once: true });
      s.running = { controller, client };
      // updates go out in order, and all of them before the prompt's answer
      let queue = Promise.resolve();
      const send = (update: SessionUpdate) => {
        queue = queue.then(() =>
          client.notify(methods.client.session.update, { sessionId: s.id, update })
        ).catch(() => {});
      };
      const announced = new Set<string>();
      const onEvent = (e: HarnessEvent) => {
        if (e.type === "text" && e.text) {
          send({ sessionUpdate: "agent_message_chunk", content: text(e.text) });
        } else if (e.type === "thinking" && e.text) {
          send({ sessionUpdate: "agent_thought_chunk", content: text(e.text) });
        } else if (e.type === "tool_call_end" || e.type === "tool_start") {
          if (e.type === "tool_start") s.running!.toolCallId = e.id;
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
            ...describeCall(e.name, e.input, s.cwd),
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
      try {
        await askConsent(s, client);
        const r = await s.h.run({
          message: promptText(params.prompt),
          session: s.id,
          signal: controller.signal,
          onEvent,
          // the editor drives the main agent: its foreground bot and ceiling apply
          principal: "main",
        });
        await queue;
        if (r.cancelled) return { stopReason: "cancelled" as const };
        if (r.error) {
          if (/HARNESS_MAX_TURNS/.test(r.message ?? "")) {
            return { stopReason: "max_turn_requests" as const };
          }
          throw RequestError.internalError({ sessionId: s.id }, r.message ?? "the turn failed");
        }
        return { stopReason: "end_turn" as const };
      } catch (err) {
        await queue;
        throw failure(err);
      } finally {
        signal.removeEventListener("abort", onAbort);
        s.running = undefined;
      }
    })
    .onNotification(methods.agent.session.cancel, ({ params }) => {
      sessions.get(params.sessionId)?.running?.controller.abort();
    });

  // a message over the limit is answered with an error, and the connection goes on
  const output = sharedOutput(io.output);
  const input = limitLines(io.input, async (head, bytes) => {
    const answer = tooLargeAnswer(idOfHead(new TextDecoder().decode(head)), bytes);
    cli.stderr(`hs acp: a message of ${bytes} bytes was refused (the limit is 32 MiB)\n`);
    await output.write(new TextEncoder().encode(answer));
  });
  const connection = app.connect(acp.ndJsonStream(output.stream, input));
  await connection.closed;
  for (const s of sessions.values()) s.running?.controller.abort();
  for (const p of harnesses.values()) {
    try {
      await (await p).close();
    } catch { /* failed to start: nothing to close */ }
  }
  return 0;
}

/** Registers `hs acp`. */
export function register(program: Command, ctx: CommandContext): void {
  (addRunFlags(
    program.command("acp").description(
      "serve the Agent Client Protocol on stdin/stdout (editors such as Zed; see docs/acp.md)",
    ),
  ) as unknown as Command<[], AcpFlags>)
    .action(async (flags) => {
      ctx.done(
        await serveAcp(ctx.cli, flags as AcpFlags, {
          input: Deno.stdin.readable,
          output: Deno.stdout.writable,
        }),
      );
    });
}
