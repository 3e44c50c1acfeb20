/**
 * One check request to a provider (`hs init`, `hs doctor --provider`): a one-line prompt,
 * no tools, a short answer; the result says the provider, model and time, or what failed
 * with the error's hint.
 *
 * @module
 */
import type { FrontEnd } from "../../core/mod.ts";
import { HarnessError } from "../../core/base/mod.ts";

/** The outcome of a check. */
export interface ProviderCheck {
  ok: boolean;
  /** One line: `ok: local answered (model m, 120 ms)` or the failure. */
  line: string;
  /** What to do about a failure. */
  hint?: string;
}

/** Sends one request to the provider named `name` (or the resolved one). */
export async function checkProvider(h: FrontEnd, name?: string): Promise<ProviderCheck> {
  let resolved: { provider: string; model: string };
  try {
    resolved = await h.catalog.resolve(name ?? "", "");
  } catch (err) {
    return failed(err);
  }
  const info = (await h.catalog.providers()).find((p) => p.name === resolved.provider);
  if (!info) return { ok: false, line: `no provider named ${resolved.provider}` };
  const model = resolved.model || await info.provider.defaultModel();
  const ready = await info.provider.ready();
  if (!ready.ready) return { ok: false, line: `${info.name}: not ready: ${ready.reason}` };
  const ac = new AbortController();
  const started = performance.now();
  let text = "";
  try {
    await info.provider.send(
      {
        messages: [{ role: "user", content: "This is a connection check. Reply with: ok" }],
        tools: [],
        system: "You answer connection checks with one word.",
      },
      model,
      {
        emit: (e) => {
          if (e.type === "text") text += e.text;
        },
        signal: ac.signal,
      },
    );
  } catch (err) {
    return failed(err);
  }
  const ms = Math.round(performance.now() - started);
  const said = text.trim().replace(/\s+/g, " ").slice(0, 40);
  return {
    ok: true,
    line: `ok: ${info.name} answered (model ${model || "(server default)"}, ${ms} ms${
      said ? `: "${said}"` : ""
    })`,
  };
}

function failed(err: unknown): ProviderCheck {
  const e = err as Error;
  const hint = err instanceof HarnessError ? err.hint : undefined;
  return { ok: false, line: e.message ?? String(err), hint: hint || undefined };
}
