/**
 * `hs init`: sets a project up for hs in one step — `.harness/providers/<name>.conf` and
 * `.harness/settings.conf` written from a short dialogue (or flags, for scripts), the new
 * `.harness/` trusted as `hs trust` would, and one check request sent to the endpoint.
 * Endpoints on loopback (llama.cpp, Ollama, vLLM) need no key (`auth=none`).
 *
 * @module
 */
import type { Command } from "@commander-js/extra-typings";
import { join } from "../../core/early/mod.ts";
import { HarnessError, resolvePaths, statOrUndefined } from "../../core/base/mod.ts";
import { CONF_KEYS } from "../../plugins/providers/setup/mod.ts";
import { askLine } from "../prompts/mod.ts";
import { checkProvider, type CommandContext, trustWorkspace } from "../harness/mod.ts";
import { sanitizeForTerminal as safe } from "../view/mod.ts";

const PROTOCOLS = ["openai", "anthropic", "openai-responses"] as const;
const PATHS: Record<string, string> = {
  anthropic: "/v1/messages",
  openai: "/v1/chat/completions",
  "openai-responses": "/v1/responses",
};

/** What `hs init` writes. */
export interface InitAnswers {
  name: string;
  protocol: string;
  url: string;
  model: string;
  /** Variable holding the key; undefined = no key (`auth=none`). */
  authEnv?: string;
}

function usage(message: string, hint: string): HarnessError {
  return new HarnessError(message, hint, 2);
}

/** True for a URL on loopback (no key needed by default). */
export function isLoopback(url: string): boolean {
  try {
    const h = new URL(url).hostname.replace(/^\[|\]$/g, "");
    return h === "localhost" || h === "::1" || /^127\./.test(h);
  } catch {
    return false;
  }
}

/** A base URL (`http://127.0.0.1:8080`, `…/v1`) completed with the protocol's path. */
export function completeUrl(url: string, protocol: string): string {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw usage(`--url ${JSON.stringify(url)} is not a URL`, "e.g. --url http://127.0.0.1:8080");
  }
  if (u.protocol !== "http:" && u.protocol !== "https:") {
    throw usage(`--url must be http(s), not ${u.protocol}`, "e.g. --url http://127.0.0.1:8080");
  }
  const path = u.pathname.replace(/\/+$/, "");
  if (path === "" || path === "/v1") u.pathname = PATHS[protocol];
  return u.toString();
}

/** The `.conf` text of the answers. */
export function confText(a: InitAnswers): string {
  return [
    `# written by hs init; keys: ${CONF_KEYS.join(", ")}, header.<Name>`,
    `protocol=${a.protocol}`,
    `url=${a.url}`,
    ...(a.model ? [`model=${a.model}`] : []),
    a.authEnv ? `auth_env=${a.authEnv}` : "auth=none",
    "",
  ].join("\n");
}

interface InitFlags {
  protocol?: string;
  url?: string;
  model?: string;
  authEnv?: string;
  auth?: boolean;
  name?: string;
  force?: boolean;
  check?: boolean;
}

/** The answers from the flags, asking on the terminal for what they leave out. */
async function answersOf(o: InitFlags, interactive: boolean): Promise<InitAnswers> {
  const ask = async (what: string, flag: string, fallback?: string) => {
    if (!interactive) {
      if (fallback !== undefined) return fallback;
      throw usage(
        `hs init needs ${flag} when stdin is not a terminal`,
        "hs init --protocol openai --url http://127.0.0.1:8080 --model <id> [--auth-env VAR|--no-auth]",
      );
    }
    const shown = fallback ? ` [${fallback}]` : "";
    const a = (await askLine(`${what}${shown}: `))?.trim();
    if (a === undefined) throw usage("hs init: no answer (stdin closed)", `pass ${flag}`);
    return a || fallback || "";
  };
  const name = o.name ?? "local";
  if (!/^[A-Za-z0-9][A-Za-z0-9_.-]*$/.test(name)) {
    throw usage(`--name ${JSON.stringify(name)} is not a provider name`, "letters, digits, . _ -");
  }
  const protocol = o.protocol ??
    await ask(`protocol (${PROTOCOLS.join(", ")})`, "--protocol", "openai");
  if (!(PROTOCOLS as readonly string[]).includes(protocol)) {
    throw usage(`unknown protocol "${protocol}"`, `one of: ${PROTOCOLS.join(", ")}`);
  }
  const url = completeUrl(o.url ?? await ask("URL of the server", "--url"), protocol);
  const model = o.model ?? await ask("model", "--model", interactive ? "" : undefined);
  let authEnv = o.authEnv;
  if (authEnv !== undefined && o.auth === false) {
    throw usage("--auth-env and --no-auth contradict each other", "keep one of them");
  }
  if (authEnv === undefined && o.auth !== false && !isLoopback(url)) {
    authEnv = await ask("variable that holds the API key", "--auth-env VAR (or --no-auth)");
  }
  if (authEnv !== undefined && !/^[A-Za-z_][A-Za-z0-9_]*$/.test(authEnv)) {
    throw usage(
      `--auth-env ${JSON.stringify(authEnv)} is not a variable name`,
      "e.g. --auth-env OPENAI_API_KEY",
    );
  }
  return { name, protocol, url, model, authEnv: authEnv || undefined };
}

/** Registers `hs init`. */
export function register(program: Command, ctx: CommandContext): void {
  const cli = ctx.cli;
  program.command("init").description(
    "set this project up: a provider .conf and settings.conf, trusted, checked with one request",
  )
    .option("--protocol <p>", "openai, anthropic or openai-responses")
    .option("--url <url>", "the server's URL (a base URL gets the protocol's path)")
    .option("--model <id>", "the model to request")
    .option("--auth-env <VAR>", "the variable that holds the API key")
    .option("--no-auth", "the server takes no key (the default on loopback)")
    .option("--name <name>", "the provider's name", "local")
    .option("--force", "overwrite an existing .conf / settings.conf")
    .option("--no-check", "do not send the check request")
    .action(async (o) => {
      const a = await answersOf(o, cli.stdinIsTerminal && cli.stdoutIsTerminal);
      const dir = join(cli.cwd, ".harness");
      const conf = join(dir, "providers", `${a.name}.conf`);
      const settings = join(dir, "settings.conf");
      for (const f of [conf, settings]) {
        if (statOrUndefined(f) && !o.force) {
          throw new HarnessError(
            `${f} exists; hs init does not overwrite it`,
            "pass --force to replace it, or edit it yourself",
            1,
          );
        }
      }
      await Deno.mkdir(join(dir, "providers"), { recursive: true });
      await Deno.writeTextFile(conf, confText(a));
      await Deno.writeTextFile(
        settings,
        `provider=${a.name}\n${a.model ? `model=${a.model}\n` : ""}`,
      );
      cli.stdout(`wrote ${safe(conf)}\nwrote ${safe(settings)}\n`);
      const home = resolvePaths(cli.env, cli.cwd).home;
      const { workspaces, mcp } = await trustWorkspace(home, cli.cwd);
      for (const w of workspaces) cli.stdout(`trusted ${safe(w)}\n`);
      for (const s of mcp?.servers ?? []) {
        cli.stdout(`approved MCP server ${safe(s)} of ${safe(mcp!.file)}\n`);
      }
      if (o.check === false) return ctx.done(0);
      const host = new URL(a.url).host;
      if (Deno.permissions.querySync({ name: "net", host }).state !== "granted") {
        cli.stdout(`check it: hs doctor --provider ${a.name}\n`);
        return ctx.done(0);
      }
      await ctx.run({}, async (h) => {
        const r = await checkProvider(h, a.name);
        cli.stdout(safe(r.line) + "\n");
        if (!r.ok && r.hint) cli.stderr(`hint: ${safe(r.hint)}\n`);
        return r.ok ? 0 : 1;
      });
    });
}
