/**
 * Test support for runtime-plugin tests: an in-process model provider that
 * answers with Anthropic-shaped native responses from a script (registered by
 * a plugin, as a user's model plugin would be), and a harness in a temporary
 * workspace whose log lines are captured.
 */
import type {
  HarnessCore,
  HarnessOptions,
  ModelProvider,
  RuntimePlugin,
  SendOptions,
} from "../../../core/mod.ts";
import { Harness } from "../../../plugins/mod.ts"; // the kernel with its built-in plugins
import { makeWorkspace, type Workspace } from "../../support/workspace.ts";

/** One scripted answer: text and tool calls. */
export interface Answer {
  text?: string;
  calls?: { id: string; name: string; input: unknown }[];
}

/** A model provider replaying `script` (one answer per request). */
export function scriptedModel(
  script: Answer[],
  opts: {
    name?: string;
    onSend?: (o: SendOptions) => Promise<void> | void;
    /** Answers by principal prompt: when the last user message equals a key, use that script. */
  } = {},
): ModelProvider & { requests: number } {
  let i = 0;
  const p = {
    name: opts.name ?? "fake",
    description: "scripted in-process model",
    protocol: "anthropic",
    requests: 0,
    ready: () => Promise.resolve({ ready: true, reason: "scripted" }),
    defaultModel: () => Promise.resolve("fake-1"),
    async send(_payload: unknown, model: string, o: SendOptions) {
      p.requests++;
      await opts.onSend?.(o);
      const a = script[Math.min(i++, script.length - 1)] ?? { text: "" };
      const content = [
        ...(a.text ? [{ type: "text", text: a.text }] : []),
        ...(a.calls ?? []).map((c) => ({
          type: "tool_use",
          id: c.id,
          name: c.name,
          input: c.input,
        })),
      ];
      return {
        model,
        stop_reason: a.calls?.length ? "tool_use" : "end_turn",
        usage: { input_tokens: 3, output_tokens: 2 },
        content,
      };
    },
  };
  return p;
}

/** A plugin registering `model` (id `fake-model`). */
export function modelPlugin(model: ModelProvider, id = "fake-model"): RuntimePlugin {
  return {
    id,
    version: "1.0.0",
    apiVersion: 1,
    setup(ctx) {
      ctx.models.register(model, [{ id: `${model.name}-1` }]);
    },
  };
}

/** A harness in a fresh workspace, with its log lines captured. */
export interface Rig {
  w: Workspace;
  h: HarnessCore;
  lines: string[];
  close(): Promise<void>;
}

/** Creates a harness over a fresh workspace (no user plugins unless `opts` says otherwise). */
export async function makeRig(
  plugins: RuntimePlugin[],
  opts: HarnessOptions = {},
  workspace?: Workspace,
): Promise<Rig> {
  const w = workspace ?? await makeWorkspace();
  const lines: string[] = [];
  try {
    const h = await Harness.create({
      cwd: w.ws,
      env: { ...w.env, HARNESS_PROVIDER: "fake" },
      userPlugins: false,
      ephemeral: true,
      log: (l) => lines.push(l),
      runtimePlugins: plugins.map((plugin) => ({ plugin: plugin as RuntimePlugin<unknown> })),
      ...opts,
    });
    return {
      w,
      h,
      lines,
      async close() {
        await h.close();
        await w.cleanup();
      },
    };
  } catch (err) {
    await w.cleanup();
    throw err;
  }
}
