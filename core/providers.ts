/**
 * Executable providers (PROTOCOLS "Providers"): payload JSON on stdin, one
 * native JSON response on stdout; `--ready`, `--defaults`, `--describe`,
 * `--stream`. The protocol of the native shape comes from `--defaults`
 * (`protocol=`), else the provider's name when it is a protocol, else
 * "anthropic".
 *
 * @module
 */
import type { ModelProvider, ProviderEvent } from "./types.ts";
import { ProviderError } from "./errors.ts";
import { runExecutable, tail } from "./exec.ts";
import { readTextOrUndefined } from "./fsutil.ts";
import { parseKeyValues } from "./session.ts";

/** Dependencies of an executable provider. */
export interface ExecProviderDeps {
  env(stage: string): Record<string, string>;
  cwd: string;
  log(line: string): void;
}

/** Wraps a provider executable as a ModelProvider. */
export function executableProvider(
  name: string,
  path: string,
  deps: ExecProviderDeps,
): ModelProvider & {
  defaults(): Promise<Record<string, string>>;
  detectProtocol(): Promise<string>;
} {
  let defaults: Promise<Record<string, string>> | undefined;
  const getDefaults = () =>
    defaults ??= runExecutable(path, {
      args: ["--defaults"],
      env: deps.env("resolve"),
      cwd: deps.cwd,
      timeoutMs: 10_000,
    }).then((r) => (r.code === 0 ? parseKeyValues(r.stdout) : {}));
  const source = readTextOrUndefined(path) ?? "";
  const streams = source.includes("--stream");
  const protocolGuess = ["anthropic", "openai", "openai-responses"].includes(name)
    ? name
    : "anthropic";
  const provider = {
    name,
    description: "",
    protocol: protocolGuess,
    async ready() {
      const r = await runExecutable(path, {
        args: ["--ready"],
        env: deps.env("resolve"),
        cwd: deps.cwd,
        timeoutMs: 10_000,
      });
      return {
        ready: r.code === 0,
        reason: r.code === 0 ? "--ready exited 0" : `--ready exited ${r.code}`,
      };
    },
    async defaultModel() {
      return (await getDefaults()).model ?? "";
    },
    defaults: getDefaults,
    /** The protocol of the native shape: `--defaults` `protocol=`, else the guess. */
    async detectProtocol() {
      const d = await getDefaults();
      if (d.protocol) provider.protocol = d.protocol;
      if (d.description) provider.description = d.description;
      return provider.protocol;
    },
    async send(
      payload: unknown,
      model: string,
      options: { emit(e: ProviderEvent): void; signal: AbortSignal },
    ) {
      const env: Record<string, string> = { ...deps.env("send"), HARNESS_MODEL: model };
      const s = Number.parseFloat(env.HARNESS_PROVIDER_TIMEOUT ?? "");
      const timeoutMs = (Number.isFinite(s) && s > 0 ? s : 600) * 1000;
      const r = await runExecutable(path, {
        args: streams ? ["--stream"] : [],
        stdin: JSON.stringify(payload),
        env,
        cwd: deps.cwd,
        timeoutMs,
        signal: options.signal,
        onStderr: (t) => deps.log(t.trimEnd()),
      });
      if (r.aborted) throw new ProviderError("cancelled");
      if (r.timedOut) {
        throw new ProviderError(`provider ${path} timed out after ${timeoutMs / 1000} s`);
      }
      let parsed: unknown;
      try {
        parsed = JSON.parse(r.stdout);
      } catch {
        parsed = undefined;
      }
      if (r.code !== 0) {
        const msg = (parsed as { error?: unknown })?.error;
        throw new ProviderError(
          typeof msg === "string" ? msg : `provider ${path} exited ${r.code}: ${tail(r.stderr, 3)}`,
        );
      }
      if (typeof parsed !== "object" || parsed === null) {
        throw new ProviderError(`provider ${path} printed something that is not JSON`);
      }
      const err = (parsed as { error?: unknown }).error;
      if (
        err && !(parsed as { content?: unknown }).content &&
        !(parsed as { choices?: unknown }).choices
      ) {
        throw new ProviderError(typeof err === "string" ? err : JSON.stringify(err));
      }
      return parsed;
    },
  };
  return provider;
}
