/**
 * A protocol adapter whose code loads on first use. The providers plugin registers the three
 * adapters, and every provider holds one, when a harness is set up — `hs tools` too — but only a
 * model request needs them: the adapters' modules (the wire shapes, the HTTP exchange, the event
 * stream parser) load on the first `send` or {@link ProtocolAdapter.load}. The loop calls `load`
 * once it knows a turn's protocol, before the synchronous `buildMessages`, `buildTools` and
 * `parseResponse`; called before it, they say so.
 *
 * @module
 */
import {
  type ConversationMessage,
  type Endpoint,
  HarnessError,
  type ProtocolAdapter,
  type SendOptions,
  type SendPayload,
  type ToolSchema,
} from "../../../core/mod.ts";
import { lateImport } from "../../../core/early/mod.ts";
import type { AdapterOptions } from "./http_options.ts";
import { PROTOCOLS } from "./protocols.ts";

// deno-lint-ignore no-explicit-any
declare const require: (path: string) => any;

/** What this module takes of the adapters' module (plugins/providers/wire/). */
interface Adapters {
  getAdapter(protocol: string, options?: AdapterOptions): ProtocolAdapter;
}

/** The adapters' module, loaded on the first use of an adapter (core/early/late_import.ts). */
const adapters = () =>
  lateImport<Adapters>(
    new URL("../wire/mod.ts", import.meta.url),
    () => require("../wire/mod.ts" as string),
  );

/**
 * The adapter of a built-in protocol (wire/adapters.ts `getAdapter`: the shared instance without
 * options, a new one with them), loaded on first use. An unknown protocol is refused at once.
 */
export function lazyAdapter(protocol: string, options?: AdapterOptions): ProtocolAdapter {
  if (!(PROTOCOLS as readonly string[]).includes(protocol)) {
    throw new HarnessError(`unknown protocol "${protocol}"`, `use one of: ${PROTOCOLS.join(", ")}`);
  }
  let real: ProtocolAdapter | undefined;
  let loading: Promise<ProtocolAdapter> | undefined;
  const load = () =>
    loading ??= adapters().then((m) => real = m.getAdapter(protocol, options)).catch((e) => {
      loading = undefined; // a failed load is tried again by the next request
      throw e;
    });
  const loaded = (what: string): ProtocolAdapter => {
    if (real) return real;
    throw new HarnessError(
      `the ${protocol} adapter's ${what} was called before the adapter loaded`,
      "await adapter.load() first (the loop does once it knows the turn's protocol)",
    );
  };
  return {
    protocol,
    async load(): Promise<void> {
      await load();
    },
    buildMessages: (conversation: ConversationMessage[]) =>
      loaded("buildMessages").buildMessages(conversation),
    buildTools: (tools: ToolSchema[]) => loaded("buildTools").buildTools(tools),
    parseResponse: (native: unknown) => loaded("parseResponse").parseResponse(native),
    async send(payload: SendPayload, endpoint: Endpoint, opts: SendOptions): Promise<unknown> {
      return await (await load()).send(payload, endpoint, opts);
    },
  };
}
