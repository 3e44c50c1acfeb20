/**
 * The `connector-cloud` plugin: its two tools over the hosted connector service (see mod.ts).
 *
 * @module
 */
import { z } from "zod";
import { type RuntimePlugin, textResult, type ToolDefinition } from "../../core/mod.ts";
import { createConnectorPlugin } from "../connectors/mod.ts";

/** The configuration of `connector-cloud`. */
export interface CloudConfig {
  /** The service's base URL (https). Unset: the tools answer that it is not configured. */
  url?: string;
  /** The variable holding the API token (default `HS_CLOUD_TOKEN`). */
  tokenEnv: string;
  /** The account the calls act for (from the embedding application, never the model). */
  account?: string;
  /** One request's timeout, seconds (default 30). */
  timeoutSeconds: number;
}

const configSchema = z.object({
  url: z.string().regex(/^https?:\/\//, "url must be http(s)").optional(),
  tokenEnv: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/).optional(),
  account: z.string().min(1).optional(),
  timeoutSeconds: z.number().positive().optional(),
}).strict();

/** What the plugin reads from the harness. */
export interface CloudDeps {
  /** The harness's environment (the API token is read from it). */
  env: Record<string, string | undefined>;
  /** The HTTP client (tests inject one). */
  fetch?: typeof fetch;
}

const APP = { type: "string", pattern: "^[a-z0-9_-]{1,64}$", description: "the app, e.g. github" };

/** The `connector-cloud` runtime plugin. */
export function cloudConnectorPlugin(deps: CloudDeps): RuntimePlugin<CloudConfig> {
  const doFetch = deps.fetch ?? fetch;
  return createConnectorPlugin<CloudConfig>({
    id: "connector-cloud",
    version: "1.0.0",
    namespace: "cloud",
    parseConfig(raw) {
      const r = configSchema.safeParse(raw ?? {});
      if (!r.success) throw new Error(r.error.issues[0].message);
      return {
        ...r.data,
        tokenEnv: r.data.tokenEnv ?? "HS_CLOUD_TOKEN",
        timeoutSeconds: r.data.timeoutSeconds ?? 30,
      };
    },
    connect(config) {
      // No network here: requests happen when a tool is called.
      const call = async (
        path: string,
        body: Record<string, unknown>,
        signal: AbortSignal,
      ) => {
        if (!config.url) {
          return textResult(
            'error: connector-cloud is not configured: set "url" in its plugins.json config ' +
              '({"id": "connector-cloud", "config": {"url": "https://…"}}), or disable it',
            true,
          );
        }
        const token = deps.env[config.tokenEnv];
        if (!token) {
          return textResult(
            `error: connector-cloud has no token: set ${config.tokenEnv} (never in plugins.json)`,
            true,
          );
        }
        try {
          const res = await doFetch(new URL(path, config.url.replace(/\/?$/, "/")), {
            method: "POST",
            headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
            body: JSON.stringify({ ...body, account: config.account }),
            signal: AbortSignal.any([signal, AbortSignal.timeout(config.timeoutSeconds * 1000)]),
          });
          const text = await res.text();
          if (!res.ok) {
            return textResult(
              `error: connector-cloud answered ${res.status}: ${text.slice(0, 500)}`,
              true,
            );
          }
          return textResult(text);
        } catch (err) {
          if (signal.aborted) return textResult("error: cancelled", true);
          const name = err instanceof Error ? err.name : "error";
          return textResult(`error: connector-cloud could not be reached (${name})`, true);
        }
      };
      const tools: ToolDefinition[] = [
        {
          name: "connect",
          description:
            "Create a hosted link the user opens to connect an account of an app (OAuth happens on the hosted page).",
          inputSchema: { type: "object", properties: { app: APP }, required: ["app"] },
          execute: (input, ctx) =>
            call("v1/links", { app: (input as { app?: unknown })?.app }, ctx.signal),
        },
        {
          name: "action",
          description: "Run an action of an app the user connected (see cloud__connect).",
          inputSchema: {
            type: "object",
            properties: {
              app: APP,
              action: { type: "string", description: "the action, e.g. create_issue" },
              input: { type: "object", description: "the action's arguments" },
            },
            required: ["app", "action"],
          },
          execute: (input, ctx) => {
            const i = (input ?? {}) as Record<string, unknown>;
            return call(
              "v1/actions",
              { app: i.app, action: i.action, input: i.input ?? {} },
              ctx.signal,
            );
          },
        },
      ];
      return Promise.resolve({ tools: () => Promise.resolve(tools), close: () => {} });
    },
  });
}
