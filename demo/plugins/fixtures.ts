/**
 * The four runtime plugins of `deno task demo:plugins` (seed 002 "Démarrage
 * rapide"): a scripted model, a local tool, an audit observer and a simulated
 * connector. Demonstrations: no credentials, no network.
 *
 * @module
 */
import {
  type AuditEvent,
  createConnectorPlugin,
  type ModelProvider,
  type RuntimePlugin,
  textResult,
} from "../../mod.ts";

/** One scripted answer (Anthropic-shaped, like a real model's). */
interface Answer {
  text: string;
  calls?: { id: string; name: string; input: Record<string, unknown> }[];
}

const SCRIPT: Answer[] = [
  {
    text: "Counting the words first, then looking up the ticket.",
    calls: [
      { id: "call_1", name: "word_count", input: { text: "plugins feed the same registries" } },
      { id: "call_2", name: "tickets__lookup", input: { id: "HS-42" } },
    ],
  },
  { text: "The sentence has 5 words, and ticket HS-42 is open (assigned to ada)." },
];

/** A model provider that replays {@link SCRIPT}, in-process (no HTTP at all). */
export function scriptedModelPlugin(): RuntimePlugin {
  return {
    id: "demo-model",
    version: "1.0.0",
    apiVersion: 1,
    setup(ctx) {
      let i = 0;
      const provider: ModelProvider = {
        name: "demo",
        description: "a scripted model (demonstration)",
        protocol: "anthropic",
        ready: () => Promise.resolve({ ready: true, reason: "scripted" }),
        defaultModel: () => Promise.resolve("demo-scripted-1"),
        send(_payload, model, options) {
          const a = SCRIPT[Math.min(i++, SCRIPT.length - 1)];
          options.emit({ type: "text", text: a.text });
          return Promise.resolve({
            model,
            stop_reason: a.calls ? "tool_use" : "end_turn",
            usage: { input_tokens: 12, output_tokens: 8 },
            content: [
              { type: "text", text: a.text },
              ...(a.calls ?? []).map((c) => ({ type: "tool_use", ...c })),
            ],
          });
        },
      };
      ctx.models.register(provider, [{ id: "demo-scripted-1" }]);
    },
  };
}

/** A local tool: counts words. */
export const localToolPlugin: RuntimePlugin = {
  id: "demo-tools",
  version: "1.0.0",
  apiVersion: 1,
  setup(ctx) {
    ctx.tools.register({
      name: "word_count",
      description: "Count the words of a text",
      inputSchema: {
        type: "object",
        properties: { text: { type: "string" } },
        required: ["text"],
      },
      readOnly: true,
      execute(input) {
        const text = String((input as { text?: unknown })?.text ?? "");
        return Promise.resolve(textResult(String(text.split(/\s+/).filter(Boolean).length)));
      },
    });
  },
};

/** An audit observer that keeps the events it saw (and lifecycle boundaries) in `seen`. */
export function auditObserverPlugin(
  seen: { audit: AuditEvent[]; lifecycle: string[] },
): RuntimePlugin {
  return {
    id: "demo-audit",
    version: "1.0.0",
    apiVersion: 1,
    setup(ctx) {
      ctx.audit.registerSink((event) => {
        seen.audit.push(event);
      });
      ctx.hooks.on("turn_start", (p) => {
        seen.lifecycle.push(`turn ${p.turn} started`);
      });
      ctx.hooks.on("tool_done", (p) => {
        seen.lifecycle.push(`${p.tool} done (${p.error ? "error" : "ok"})`);
      });
      ctx.hooks.on("turn_end", (p) => {
        seen.lifecycle.push(`turn ended after ${p.rounds} rounds`);
      });
    },
  };
}

/** A simulated connector: a ticket system behind `createConnectorPlugin`. */
export const simulatedConnectorPlugin: RuntimePlugin = createConnectorPlugin({
  id: "tickets",
  version: "1.0.0",
  connect: () => {
    const tickets: Record<string, string> = { "HS-42": "open, assigned to ada" };
    return Promise.resolve({
      tools: () =>
        Promise.resolve([{
          name: "lookup",
          description: "Look up a ticket by id",
          inputSchema: {
            type: "object",
            properties: { id: { type: "string" } },
            required: ["id"],
          },
          execute(input: unknown) {
            const id = String((input as { id?: unknown })?.id ?? "");
            const t = tickets[id];
            return Promise.resolve(
              t ? textResult(`${id}: ${t}`) : textResult(`no ticket ${id}`, true),
            );
          },
        }]),
      close: () => {},
    });
  },
}) as RuntimePlugin;
