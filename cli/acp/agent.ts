/**
 * The agent side of `hs acp`, one method per ACP request: `initialize`, `session/new`,
 * `session/load`, `session/prompt`, `session/cancel`; the harness of each working directory
 * (one for the connection's lifetime, the floor's `ask` becoming `session/request_permission`),
 * the consent of behavior packs whose guards wait for approval, and the close.
 *
 * @module
 */
import { isAbsolute } from "../../core/early/mod.ts";
import type * as Acp from "@agentclientprotocol/sdk";
import type { Answer, EditorFiles, FrontEnd } from "../../core/mod.ts";
import { errorMessage, HarnessError, permissionDenied, VERSION } from "../../core/base/mod.ts";
import type { CliContext } from "../base/mod.ts";
import { floorRequestOf, type RunFlags } from "../harness/mod.ts";
import { handleTrust } from "../prompts/mod.ts";
import { promptImages, promptText, replayUpdates, text, turnUpdates } from "./describe.ts";
import { editorServers, type ModeId, modeState, parseMode } from "./session_options.ts";

/** Flags of `hs acp`. */
export type AcpFlags = RunFlags;

/** The ACP SDK module (imported when `hs acp` starts). */
export type AcpSdk = typeof import("@agentclientprotocol/sdk");

/** One ACP session: an hs session directory on a harness. */
interface AcpSession {
  id: string;
  cwd: string;
  /** The hs session directory (the file tools name it when they ask the editor). */
  dir: string;
  h: FrontEnd;
  /** The session's mode (a floor preset). */
  mode: ModeId;
  /** The editor's MCP servers for this session (plugins.json's `servers` shape). */
  servers: Record<string, Record<string, unknown>>;
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

/** The agent of one ACP connection. */
export class AcpAgent {
  #sdk: AcpSdk;
  #cli: CliContext;
  #flags: AcpFlags;
  #harnesses = new Map<string, Promise<FrontEnd>>();
  #sessions = new Map<string, AcpSession>();
  /** Pack guards the editor declined in this connection (asked again next connection). */
  #declined = new Set<string>();
  /** The editor's file methods, as `initialize` announced them. */
  #clientFs: Acp.FileSystemCapabilities = {};

  /** The agent of a connection, with the SDK, the CLI's context and the flags of `hs acp`. */
  constructor(sdk: AcpSdk, cli: CliContext, flags: AcpFlags) {
    this.#sdk = sdk;
    this.#cli = cli;
    this.#flags = flags;
  }

  /** `initialize`: loadSession and embedded context in prompts; notes the editor's fs methods. */
  initialize(params?: Acp.InitializeRequest): Acp.InitializeResponse {
    this.#clientFs = params?.clientCapabilities?.fs ?? {};
    return {
      protocolVersion: this.#sdk.PROTOCOL_VERSION,
      agentCapabilities: {
        loadSession: true,
        promptCapabilities: { image: true, audio: false, embeddedContext: true },
      },
      agentInfo: { name: "hs", title: "Harness", version: VERSION },
      authMethods: [],
    };
  }

  /** `session/new`: resolves the provider and model and creates a session in its `cwd`'s sessions. */
  async newSession(params: Acp.NewSessionRequest): Promise<Acp.NewSessionResponse> {
    try {
      const mode = this.#defaultMode();
      const servers = editorServers(params.mcpServers);
      const h = await this.#harnessFor(params.cwd, mode, servers);
      const { provider, model } = await h.catalog.resolve(
        this.#flags.provider ?? h.settings.provider,
        this.#flags.model ?? h.settings.model,
      );
      const session = h.sessions.create({ cwd: params.cwd, provider, model });
      this.#sessions.set(session.id, {
        id: session.id,
        cwd: params.cwd,
        dir: session.dir,
        h,
        mode,
        servers,
      });
      return { sessionId: session.id, modes: modeState(mode) };
    } catch (err) {
      throw this.#failure(err);
    }
  }

  /** `session/load`: replays a stored session (user, agent, thought and tool call updates). */
  async loadSession(
    params: Acp.LoadSessionRequest,
    client: Acp.AgentContext,
  ): Promise<Acp.LoadSessionResponse> {
    const { methods, RequestError } = this.#sdk;
    let s: AcpSession;
    const mode = this.#defaultMode();
    try {
      const servers = editorServers(params.mcpServers);
      const h = await this.#harnessFor(params.cwd, mode, servers);
      const session = h.sessions.open(params.sessionId);
      s = {
        id: session.id,
        cwd: session.conf.cwd || params.cwd,
        dir: session.dir,
        h,
        mode,
        servers,
      };
      for (const update of replayUpdates(session.messages(), s.cwd)) {
        await client.notify(methods.client.session.update, { sessionId: s.id, update });
      }
    } catch (err) {
      if (err instanceof HarnessError && /^no session /.test(err.message)) {
        throw RequestError.sessionNotFound(params.sessionId);
      }
      throw this.#failure(err);
    }
    this.#sessions.set(s.id, s);
    return { modes: modeState(mode) };
  }

  /**
   * `session/set_mode`: the session's floor preset from its next prompt on (its harness is
   * the one of that preset; the session directory is the same).
   */
  async setMode(params: Acp.SetSessionModeRequest): Promise<Acp.SetSessionModeResponse> {
    const { RequestError } = this.#sdk;
    const s = this.#sessions.get(params.sessionId);
    if (!s) throw RequestError.sessionNotFound(params.sessionId);
    const mode = parseMode(params.modeId);
    if (mode !== params.modeId) throw RequestError.invalidParams({ modeId: params.modeId }, mode);
    if (s.running) {
      throw RequestError.invalidRequest(undefined, "a prompt is running: set the mode after it");
    }
    try {
      s.h = await this.#harnessFor(s.cwd, mode as ModeId, s.servers);
    } catch (err) {
      throw this.#failure(err);
    }
    s.mode = mode as ModeId;
    return {};
  }

  /** The mode a session starts in: `--floor`, else HARNESS_FLOOR, else `workspace`. */
  #defaultMode(): ModeId {
    const wish = this.#flags.floor ?? this.#cli.env.HARNESS_FLOOR ?? "workspace";
    const mode = parseMode(wish);
    return mode === wish ? mode as ModeId : "workspace";
  }

  /**
   * `session/prompt`: runs one turn, its events streamed as session updates (all of them,
   * in order, before the answer); the stop reason of the turn.
   */
  async prompt(
    params: Acp.PromptRequest,
    client: Acp.AgentContext,
    signal: AbortSignal,
  ): Promise<Acp.PromptResponse> {
    const { methods, RequestError } = this.#sdk;
    const s = this.#sessions.get(params.sessionId);
    if (!s) throw RequestError.sessionNotFound(params.sessionId);
    if (s.running) {
      throw RequestError.invalidRequest(undefined, "a prompt is already running in this session");
    }
    const controller = new AbortController();
    const onAbort = () => controller.abort();
    signal.addEventListener("abort", onAbort, { once: true });
    const running: NonNullable<AcpSession["running"]> = { controller, client };
    s.running = running;
    // updates go out in order, and all of them before the prompt's answer
    let queue = Promise.resolve();
    const send = (update: Acp.SessionUpdate) => {
      queue = queue.then(() =>
        client.notify(methods.client.session.update, { sessionId: s.id, update })
      ).catch(() => {});
    };
    const onEvent = turnUpdates(s.cwd, send, (id) => running.toolCallId = id);
    try {
      await this.#askConsent(s, client);
      const r = await s.h.runs.run({
        message: promptText(params.prompt),
        images: promptImages(params.prompt),
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
      throw this.#failure(err);
    } finally {
      signal.removeEventListener("abort", onAbort);
      s.running = undefined;
    }
  }

  /** `session/cancel`: cancels the running turn (stop reason `cancelled`). */
  cancel(params: Acp.CancelNotification): void {
    this.#sessions.get(params.sessionId)?.running?.controller.abort();
  }

  /** After the connection closed: cancels running turns and closes every harness. */
  async close(): Promise<void> {
    for (const s of this.#sessions.values()) s.running?.controller.abort();
    for (const p of this.#harnesses.values()) {
      try {
        await (await p).close();
      } catch { /* failed to start: nothing to close */ }
    }
  }

  /** The session whose turn asks now (the most recent tool call of a running turn). */
  #asking(cwd: string): AcpSession | undefined {
    return [...this.#sessions.values()].filter((s) => s.cwd === cwd && s.running?.toolCallId)
      .at(-1);
  }

  /** The floor's `ask` as `session/request_permission` on the asking session's tool call. */
  async #ask(cwd: string, question: string): Promise<Answer> {
    const s = this.#asking(cwd);
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
      this.#sdk.methods.client.session.requestPermission,
      request,
    );
    return answerOf(r);
  }

  /**
   * The harness of a working directory, mode and set of editor MCP servers (one for the
   * connection's lifetime). The default mode keeps the user's floor as `hs` builds it; another
   * mode replaces its preset, as `--floor` does.
   */
  #harnessFor(
    cwd: string,
    mode: ModeId,
    servers: Record<string, Record<string, unknown>>,
  ): Promise<FrontEnd> {
    if (!isAbsolute(cwd)) {
      throw this.#sdk.RequestError.invalidParams({ cwd }, "cwd must be an absolute path");
    }
    const key = JSON.stringify([cwd, mode, servers]);
    let p = this.#harnesses.get(key);
    if (!p) {
      const cli = this.#cli;
      const flags = mode === this.#defaultMode() ? this.#flags : { ...this.#flags, floor: mode };
      p = (async () => {
        const h = await cli.createHarness({
          cwd,
          env: cli.env,
          trustWorkspace: this.#flags.trustWorkspace === true,
          floorRequest: {
            ...floorRequestOf(flags, cli, false),
            asker: (question) => this.#ask(cwd, question),
          },
          terminal: false,
          mcpServers: servers,
          editorFiles: this.#editorFiles(),
        });
        await handleTrust(h, cli);
        await h.catalog.refreshSources();
        return h;
      })();
      this.#harnesses.set(key, p);
      p.catch(() => this.#harnesses.delete(key));
    }
    return p;
  }

  /**
   * The editor's buffers for the file tools, through `fs/read_text_file` and
   * `fs/write_text_file` when the editor offers them — asked only for a call of a prompt
   * running in one of its sessions, after the floor let hs read or write the file itself.
   */
  #editorFiles(): EditorFiles | undefined {
    const { methods } = this.#sdk;
    const running = (dir: string) =>
      [...this.#sessions.values()].find((s) => s.dir === dir && s.running);
    return {
      read: async (path, dir) => {
        const s = running(dir);
        if (!s?.running || !this.#clientFs.readTextFile) return undefined;
        const r = await s.running.client.request(methods.client.fs.readTextFile, {
          sessionId: s.id,
          path,
        });
        return r.content;
      },
      wrote: async (path, content, dir) => {
        const s = running(dir);
        if (!s?.running || !this.#clientFs.writeTextFile) return;
        await s.running.client.request(methods.client.fs.writeTextFile, {
          sessionId: s.id,
          path,
          content,
        });
      },
    };
  }

  /**
   * Behavior packs whose foreground bot has guards waiting for approval: the editor is asked
   * (as a permission request on a "consent" tool call) before the prompt runs; approving
   * stores the approval as `hs packs approve` does, declining leaves the bot detached.
   */
  async #askConsent(s: AcpSession, client: Acp.AgentContext): Promise<void> {
    const { methods } = this.#sdk;
    const pending = s.h.packs.bots().filter((b) =>
      b.spec.attach === "foreground" && b.pending.length
    );
    const declinedBefore = (b: typeof pending[number]) =>
      this.#declined.has(`${b.pack.root}\0${b.spec.name}`);
    // declined earlier in this connection (maybe on another mode's harness): not asked again
    for (const b of pending.filter(declinedBefore)) s.h.packs.decline(b);
    const waiting = pending.filter((b) => !declinedBefore(b));
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
      else {
        this.#declined.add(`${b.pack.root}\0${b.spec.name}`);
        s.h.packs.decline(b);
      }
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
  }

  /** An error as the editor sees it: a permission this run lacks said in hs's words. */
  #failure(err: unknown): Error {
    const { RequestError } = this.#sdk;
    if (err instanceof RequestError) return err;
    // a permission this run lacks is said in hs's words, as on the command line
    const e = (permissionDenied(err) ?? err) as HarnessError;
    const hint = e instanceof HarnessError && e.hint ? ` (${e.hint})` : "";
    return RequestError.internalError(undefined, `${errorMessage(e)}${hint}`);
  }
}
