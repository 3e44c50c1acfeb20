/**
 * Seed 002: errors omit plugin exception messages. Status, logs and pages already held; this
 * makes runs hold too. A runtime plugin's model provider and its commands are registered
 * wrapped: what one of them throws reaches the turn, the terminal and HARNESS_LOG as the
 * host's own words (which plugin, which call failed), never the plugin's text
 * (`upstream said: invalid key sk-…`). A cancellation passes as it is; a `ProviderError`'s
 * status and whether a retry may help are kept (the text is not); a permission refusal of
 * the process (a host outside the run's grant) is the host's own error and passes, with its
 * flag hint. Built-ins are not wrapped:
 * their messages are the kernel's.
 *
 * @module
 */
import {
  HarnessError,
  type ModelProvider,
  type Owner,
  ownerLabel,
  permissionDenied,
  ProviderError,
} from "../base/mod.ts";
import type { CommandDefinition } from "./types.ts";

const HINT = "the plugin's own log (ctx.logger) has what it chose to say";

function isCancel(err: unknown, signal?: AbortSignal): boolean {
  return signal?.aborted === true || (err instanceof DOMException && err.name === "AbortError");
}

/** `provider` as the registries keep it: a failing `send` says which plugin, not what it said. */
export function quietProvider(provider: ModelProvider, owner: Owner): ModelProvider {
  if (owner.kind === "builtin") return provider;
  const who = `provider "${provider.name}" (${ownerLabel(owner)})`;
  const send: ModelProvider["send"] = (payload, model, options) =>
    provider.send(payload, model, options).catch((err: unknown) => {
      if (isCancel(err, options.signal)) throw err;
      // the process's own refusal (a host or path outside the grant) is the host's word
      if (permissionDenied(err)) throw err;
      const p = err instanceof ProviderError ? err : undefined;
      throw new ProviderError(
        `${who} failed${p?.status ? ` (HTTP ${p.status})` : ""}: its message is not shown`,
        { hint: HINT, status: p?.status, retryable: p?.retryable, reachedServer: p?.reachedServer },
      );
    });
  return new Proxy(provider, {
    get(target, key) {
      if (key === "send") return send;
      const v = Reflect.get(target, key, target);
      return typeof v === "function" ? v.bind(target) : v;
    },
  });
}

/** `command` as the registries keep it: a throwing `run` says which command failed. */
export function quietCommand(command: CommandDefinition, owner: Owner): CommandDefinition {
  if (owner.kind === "builtin") return command;
  const name = String(command.name);
  return {
    name: command.name,
    describe: command.describe,
    run: async (args) => {
      try {
        return await command.run(args);
      } catch {
        throw new HarnessError(
          `command "${name}" of ${ownerLabel(owner)} failed: its message is not shown`,
          HINT,
        );
      }
    },
  };
}
