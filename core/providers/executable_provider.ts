/**
 * Executable providers (PROTOCOLS "Providers"): payload JSON on stdin, one
 * native JSON response on stdout; `--ready`, `--defaults`, `--describe`,
 * `--env`, `--stream`. The protocol of the native shape comes from `--defaults`
 * (`protocol=`), else the provider's name when it is a protocol, else the name
 * of the provider-plugin pack it sits in when that is one (the reference's
 * `plugins/anthropic/providers/claude`); otherwise it is unknown (the loop then
 * builds Anthropic-shaped messages).
 *
 * A provider is the one child that sees a credential: its own (see
 * {@link ExecProviderDeps.credentials}).
 *
 * @module
 */
import { basename, dirname, join } from "../early/mod.ts";
import { followStream } from "./stream_follow.ts";
import {
  type ModelProvider,
  parseKeyValues,
  ProviderError,
  type ProviderEvent,
  type Readiness,
  readTextOrUndefined,
} from "../base/mod.ts";
import {
  DEFAULT_MAX_STDOUT,
  type ExecResult,
  formatBytes,
  runExecutable,
  tail,
  unconfined,
} from "../exec/mod.ts";
import { envHelpNames } from "./provider_credentials.ts";

/** Dependencies of an executable provider. */
export interface ExecProviderDeps {
  /** The child environment for a stage (`session` / `cwd` / `model` of a request when known). */
  env(
    stage: string,
    extra?: { session?: string; cwd?: string; model?: string; provider?: string },
  ): Record<string, string>;
  /** The harness's working directory (HARNESS_CWD outside a session). */
  cwd: string;
  /** Writes a line to HARNESS_LOG. */
  log(line: string): void;
  /** Longest wait for one request (default 600 s; HARNESS_PROVIDER_TIMEOUT). */
  timeoutMs?: number;
  /** Most bytes of one response on stdout (default 64 MiB; HARNESS_HOOK_OUTPUT_LIMIT). */
  maxResponseBytes?: number;
  /**
   * The provider's own credentials: variables named by its `--env` help (`names`) taken
   * from hs's environment, or its stored key; also refreshes `.auth-cache.json`.
   */
  credentials?(name: string, names: string[]): Promise<Record<string, string>>;
}

/** Protocols an executable provider may declare with `--defaults` `protocol=`. */
const KNOWN_PROTOCOLS = ["anthropic", "openai", "openai-responses"];

/** An executable provider: a ModelProvider plus its optional flags. */
export type ExecutableProvider = ModelProvider & {
  /** `--defaults` as key=value pairs ({} when the flag fails). */
  defaults(): Promise<Record<string, string>>;
  /** The protocol of the native shape the loop uses: the declared one, else "anthropic". */
  detectProtocol(): Promise<string>;
  /**
   * The protocol it declares or is known to speak (`--defaults` `protocol=`, its name, its
   * provider-plugin pack's name), or undefined when nothing says (`hs providers`: unknown).
   */
  declaredProtocol(): Promise<string | undefined>;
  /**
   * True when `--defaults` declares `protocol=`: the loop then gives it that protocol's tool
   * shapes; otherwise (the reference's providers) the neutral schemas it converts itself.
   */
  nativeTools(): Promise<boolean>;
  /** First line of `--describe` ("" when the flag fails). */
  describe(): Promise<string>;
  /** `--env` help text ("" when the flag fails). */
  envHelp(): Promise<string>;
  /** Always "executable". */
  readonly kind: "executable";
  /** The executable's path. */
  readonly path: string;
};

/** Wraps a provider executable as a ModelProvider. */
export function executableProvider(
  name: string,
  path: string,
  deps: ExecProviderDeps,
): ExecutableProvider {
  const plain = (arg: string, env: Record<string, string>) =>
    runExecutable(path, {
      args: [arg],
      env,
      cwd: deps.cwd,
      timeoutMs: 10_000,
      onStderr: (t) => deps.log(t.trimEnd()),
      // A provider reaches its own endpoint with its own credentials: it runs unconfined.
      sandbox: unconfined,
    });
  let envHelp: Promise<string> | undefined;
  const getEnvHelp = () =>
    envHelp ??= plain("--env", deps.env("resolve")).then((r) =>
      r.code === 0 ? r.stdout.trimEnd() : ""
    );
  /** Its own credentials (never logged: they only go into its environment). */
  const credentials = async (): Promise<Record<string, string>> =>
    deps.credentials ? await deps.credentials(name, envHelpNames(await getEnvHelp())) : {};
  const flag = async (arg: string) =>
    plain(arg, { ...deps.env("resolve"), ...(await credentials()) });
  let defaults: Promise<Record<string, string>> | undefined;
  const getDefaults = () =>
    defaults ??= flag("--defaults").then((r) => (r.code === 0 ? parseKeyValues(r.stdout) : {}));
  const source = readTextOrUndefined(path) ?? "";
  const streams = source.includes("--stream");
  // `plugins/<pack>/providers/<name>`: a pack named after a protocol speaks it
  const pack = basename(dirname(dirname(path)));
  const known = KNOWN_PROTOCOLS.includes(name)
    ? name
    : KNOWN_PROTOCOLS.includes(pack) && basename(dirname(dirname(dirname(path)))) === "plugins"
    ? pack
    : undefined;
  const protocolGuess = known ?? "anthropic";
  const provider: ExecutableProvider = {
    name,
    kind: "executable",
    path,
    description: "",
    protocol: protocolGuess,
    async ready(): Promise<Readiness> {
      const r = await flag("--ready");
      if (r.code === 0) return { ready: true, reason: "--ready exited 0" };
      const why = r.stderr.trim() ? `: ${tail(r.stderr, 1)}` : "";
      return { ready: false, reason: `--ready exited ${r.code}${why}` };
    },
    async defaultModel() {
      return (await getDefaults()).model ?? "";
    },
    defaults: getDefaults,
    async limits() {
      // `--defaults` may say `context=`, `max_tokens=` and `max_tool_calls=` (positive whole numbers)
      const d = await getDefaults();
      const n = (
        v: string | undefined,
      ) => (v && /^\d+$/.test(v) && Number(v) > 0 ? Number(v) : undefined);
      return {
        context: n(d.context),
        maxOutput: n(d.max_tokens),
        maxToolCalls: n(d.max_tool_calls),
        maxToolCallsFrom: `max_tool_calls= of ${path} --defaults`,
      };
    },
    async declaredProtocol() {
      const d = await getDefaults();
      if (d.protocol && KNOWN_PROTOCOLS.includes(d.protocol)) return d.protocol;
      return d.protocol ? undefined : known;
    },
    async nativeTools() {
      const d = await getDefaults();
      return !!d.protocol && KNOWN_PROTOCOLS.includes(d.protocol);
    },
    async detectProtocol() {
      const d = await getDefaults();
      if (d.protocol) {
        if (!KNOWN_PROTOCOLS.includes(d.protocol)) {
          throw new ProviderError(
            `provider ${path}: --defaults says protocol=${d.protocol}, which is not a known protocol`,
            { hint: `use one of: ${KNOWN_PROTOCOLS.join(", ")}` },
          );
        }
        provider.protocol = d.protocol;
      }
      if (d.description) provider.description = d.description;
      return provider.protocol;
    },
    async describe() {
      const r = await flag("--describe");
      const line = r.code === 0 ? r.stdout.trim().split("\n")[0] ?? "" : "";
      if (line) provider.description = line;
      return line;
    },
    envHelp: getEnvHelp,
    send(payload: unknown, model: string, options: SendOptions) {
      return sendRequest({ path, streams, deps, credentials }, payload, model, options);
    },
  };
  return provider;
}

/**
 * The native response of one request from the run's result: a cancel, an overflow, a
 * timeout, a failing exit (its `error` or stderr) or a body that is not a JSON object
 * (or only an `error`) is a {@link ProviderError}.
 */
function responseOf(
  path: string,
  r: ExecResult,
  limits: { timeoutMs: number; maxResponseBytes?: number },
): unknown {
  if (r.aborted) throw new ProviderError("cancelled");
  if (r.overflow) {
    throw new ProviderError(
      `provider ${path} printed more than ${
        formatBytes(limits.maxResponseBytes ?? DEFAULT_MAX_STDOUT)
      } on stdout (it was stopped)`,
      { hint: "set HARNESS_HOOK_OUTPUT_LIMIT to allow larger responses" },
    );
  }
  if (r.timedOut) {
    throw new ProviderError(`provider ${path} timed out after ${limits.timeoutMs / 1000} s`, {
      hint: "set HARNESS_PROVIDER_TIMEOUT (seconds) to allow more",
    });
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(r.stdout);
  } catch {
    parsed = undefined;
  }
  if (r.code !== 0) {
    const msg = (parsed as { error?: unknown })?.error;
    const why = r.stderr.trim() ? tail(r.stderr, 3) : "(no stderr)";
    throw new ProviderError(
      typeof msg === "string" ? msg : `provider ${path} exited ${r.code}: ${why}`,
    );
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    const shown = r.stdout.trim() ? `${r.stdout.length} bytes that are not` : "nothing, not";
    throw new ProviderError(
      `provider ${path} printed ${shown} a JSON object`,
      { hint: "a provider prints one native JSON response on stdout" },
    );
  }
  const err = (parsed as { error?: unknown }).error;
  if (
    err && !(parsed as { content?: unknown }).content &&
    !(parsed as { choices?: unknown }).choices &&
    !(parsed as { output?: unknown }).output
  ) {
    throw new ProviderError(
      typeof err === "string"
        ? err
        : typeof (err as { message?: unknown }).message === "string"
        ? (err as { message: string }).message
        : JSON.stringify(err),
    );
  }
  return parsed;
}

/** What a provider's `send` is given besides the payload and the model. */
interface SendOptions {
  emit(e: ProviderEvent): void;
  signal: AbortSignal;
  session?: { dir: string; cwd: string };
}

/** One request of an executable provider: the payload on stdin, its response parsed. */
async function sendRequest(
  p: {
    path: string;
    streams: boolean;
    deps: ExecProviderDeps;
    credentials(): Promise<Record<string, string>>;
  },
  payload: unknown,
  model: string,
  options: SendOptions,
): Promise<unknown> {
  const { path, streams, deps } = p;
  const env = {
    ...deps.env("send", {
      session: options.session?.dir,
      cwd: options.session?.cwd || undefined,
      model,
    }),
    ...(await p.credentials()),
  };
  const timeoutMs = deps.timeoutMs ?? 600_000;
  // A --stream provider appends its events to .stream: show its text as it comes.
  const follower = streams && options.session
    ? followStream(join(options.session.dir, ".stream"), (e) => {
      if ((e.type === "text" || e.type === "thinking") && typeof e.text === "string") {
        options.emit({ type: e.type, text: e.text, recorded: true });
      }
    })
    : undefined;
  const r = await runExecutable(path, {
    args: streams ? ["--stream"] : [],
    stdin: JSON.stringify(payload),
    env,
    cwd: options.session?.cwd || deps.cwd,
    timeoutMs,
    signal: options.signal,
    onStderr: (t) => deps.log(t.trimEnd()),
    sandbox: unconfined,
    maxStdoutBytes: deps.maxResponseBytes,
  }).finally(() => follower?.stop());
  return responseOf(path, r, { timeoutMs, maxResponseBytes: deps.maxResponseBytes });
}
