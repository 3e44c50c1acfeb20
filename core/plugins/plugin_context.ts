/**
 * The context a runtime plugin's `setup(ctx)` receives, handed its data: the registries it
 * registers into (each entry owned by the plugin, only during setup and while it is active),
 * the audit bus, the log, the child sandbox and the file skills a runtime skill may not
 * shadow. Registrations are checked here (skills, model providers, lifecycle events, pages,
 * pack directories).
 *
 * @module
 */
import { isAbsolute } from "../early/mod.ts";
import {
  type ChildSandbox,
  HarnessError,
  LIFECYCLE_EVENTS,
  type ModelDefinition,
  type ModelProvider,
  type Owner,
  ownerLabel,
  type SkillInfo,
} from "../base/mod.ts";
import type { AuditBus } from "./audit.ts";
import { quietCommand, quietProvider } from "./quiet_errors.ts";
import { guardStale, type Loaded } from "./loaded.ts";
import { validatePage } from "./pages.ts";
import type { Registries } from "./registries.ts";
import type { PluginContext, RuntimePlugin } from "./types.ts";

/** What a plugin's context is built over. */
export interface ContextInputs {
  /** The registries plugins register into. */
  registries: Registries;
  /** The audit bus sinks are registered on. */
  audit: AuditBus;
  /** Writes a line to the harness log. */
  log: (line: string) => void;
  /** The OS sandbox plugins put their child processes in. */
  sandbox: ChildSandbox;
  /** The path of a file skill named `name` (a runtime skill of that name is rejected). */
  fileSkill?: (name: string) => string | undefined;
  /** Command names no plugin may register (the front end's built-in commands). */
  reservedCommands?: ReadonlySet<string>;
}

/** `ctx.degrade`: records why an active plugin runs degraded (`hs plugins` shows it). */
function degrader(loaded: Loaded): (reason: string) => void {
  return (reason) => {
    if (loaded.active) loaded.degraded = String(reason).slice(0, 2000);
  };
}

/** The context of one plugin's setup. */
export function pluginContext(
  plugin: RuntimePlugin<unknown>,
  loaded: Loaded,
  config: unknown,
  inputs: ContextInputs,
): PluginContext<unknown> {
  const owner = loaded.owner;
  const r = inputs.registries;
  const guard = () => registrationOpen(plugin, loaded);
  const log = (level: string) => (m: string) => inputs.log(`[${plugin.id}] ${level}: ${m}`);
  const refusing = refusalKeeper(loaded);
  let hookSeq = 0;
  return {
    id: plugin.id,
    config,
    signal: loaded.controller.signal,
    logger: { info: log("info"), warn: log("warn"), error: log("error") },
    tools: {
      register: refusing((tool) => {
        guard();
        r.tools.register(owner, tool.name, guardStale(tool, loaded));
      }),
    },
    skills: {
      register: refusing((skill) => {
        guard();
        registerSkill(r, owner, skill, inputs.fileSkill);
      }),
    },
    models: {
      register: refusing((provider, models = []) => {
        guard();
        registerModelProvider(r, owner, provider, models);
      }),
      registerProtocol: (adapter) => {
        guard();
        r.protocols.register(owner, adapter.protocol, adapter);
      },
    },
    auth: {
      register: (p) => {
        guard();
        r.auth.register(owner, p.id, p);
      },
    },
    hooks: {
      register: (hook) => {
        guard();
        r.stageHooks.register(owner, `${hook.stage}/${hook.name}`, hook);
      },
      on: (event, handler) => {
        guard();
        if (!LIFECYCLE_EVENTS.includes(event)) {
          throw new HarnessError(
            `unknown lifecycle event "${String(event)}"`,
            `use one of ${LIFECYCLE_EVENTS.join(", ")}`,
          );
        }
        if (typeof handler !== "function") {
          throw new HarnessError(`the handler of "${event}" must be a function`);
        }
        r.lifecycle.register(owner, `${ownerLabel(owner)}#${hookSeq++}`, { event, handler });
      },
    },
    audit: {
      registerSink: (sink, options) => {
        guard();
        if (typeof sink !== "function") throw new HarnessError("an audit sink is a function");
        const key = `${ownerLabel(owner)}#sink${loaded.auditKeys.length}`;
        loaded.auditKeys.push(key);
        inputs.audit.add(key, sink, { failClosed: options?.failClosed === true });
      },
    },
    prompts: {
      register: (source) => {
        guard();
        r.prompts.register(owner, source.id, source);
      },
    },
    pages: {
      register: (page) => {
        guard();
        const p = validatePage(page);
        r.pages.register(owner, p.id, p);
      },
    },
    commands: {
      register: refusing((command) => {
        guard();
        if (inputs.reservedCommands?.has(command.name)) {
          throw new HarnessError(
            `command "${command.name}" of ${ownerLabel(owner)} is named like a built-in command`,
            "a built-in is never replaced by a plugin command: give it another name",
          );
        }
        r.commands.register(owner, command.name, quietCommand(command, owner));
      }),
    },
    packs: {
      register: (dir) => {
        guard();
        if (typeof dir !== "string" || !dir.startsWith("/")) {
          throw new HarnessError("ctx.packs.register needs the pack's absolute directory");
        }
        r.packs.register(owner, dir, dir);
      },
    },
    onStart: (fn) => {
      guard();
      loaded.starts.push(fn);
    },
    onDispose: (fn) => {
      if (!loaded.active) throw new HarnessError(`plugin "${plugin.id}" is not active`);
      loaded.disposers.push(fn);
    },
    degrade: degrader(loaded),
    sandbox: inputs.sandbox,
  };
}

/** Throws unless `plugin` may register now: during its setup, while it is active. */
function registrationOpen(plugin: RuntimePlugin<unknown>, loaded: Loaded): void {
  if (!loaded.active) {
    throw new HarnessError(`plugin "${plugin.id}" registered after it stopped`);
  }
  if (loaded.setupDone) {
    throw new HarnessError(`plugin "${plugin.id}" must register contributions during setup`);
  }
}

/**
 * Wraps a registration so that the host's own refusal of it (a model id another provider
 * offers, a name taken) is kept on `loaded`: it becomes the reason the plugin failed (host
 * text, never the plugin's exception text).
 */
function refusalKeeper(loaded: Loaded) {
  return <A extends unknown[]>(fn: (...a: A) => void) => (...a: A): void => {
    try {
      fn(...a);
    } catch (e) {
      if (e instanceof HarnessError && loaded.refusal === undefined) loaded.refusal = e.message;
      throw e;
    }
  };
}

/** `ctx.skills.register`: a named skill with a description and a body, shadowing no file skill. */
function registerSkill(
  r: Registries,
  owner: Owner,
  skill: Parameters<PluginContext<unknown>["skills"]["register"]>[0],
  fileSkill: ((name: string) => string | undefined) | undefined,
): void {
  const s = skill as Partial<SkillInfo> | undefined;
  if (typeof s?.name !== "string" || !/^[A-Za-z0-9][A-Za-z0-9._:-]{0,63}$/.test(s.name)) {
    throw new HarnessError("a runtime skill needs a name (letters, digits, . _ : -)");
  }
  if (typeof s.description !== "string" || typeof s.body !== "string") {
    throw new HarnessError(`runtime skill "${s.name}" needs a description and a body`);
  }
  if (
    s.directory !== undefined && !(typeof s.directory === "string" &&
      isAbsolute(s.directory))
  ) {
    throw new HarnessError(
      `runtime skill "${s.name}": directory must be an absolute path`,
    );
  }
  const file = fileSkill?.(s.name);
  if (file) {
    throw new HarnessError(
      `runtime skill "${s.name}" from ${ownerLabel(owner)} conflicts with ${file}`,
      "runtime skills never replace built-in, user or project skills: rename it",
    );
  }
  r.skills.register(owner, skill.name, {
    ...skill,
    path: skill.path ?? "",
    // seed 002: a runtime skill "apparaît avec la source runtime"
    source: "runtime",
    owner: ownerLabel(owner),
  });
}

/** `ctx.models.register`: a provider with its models, each model id unique across providers. */
function registerModelProvider(
  r: Registries,
  owner: Owner,
  provider: ModelProvider,
  models: ModelDefinition[],
): void {
  const p = provider as Partial<ModelProvider> | undefined;
  if (
    typeof p?.name !== "string" || !/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(p.name) ||
    typeof p.send !== "function" || typeof p.ready !== "function" ||
    typeof p.defaultModel !== "function" || typeof p.protocol !== "string"
  ) {
    throw new HarnessError(
      "a model provider needs a name, a protocol, ready(), defaultModel() and send()",
    );
  }
  if (!Array.isArray(models)) {
    throw new HarnessError(`model list of provider "${p.name}" is invalid`);
  }
  const ids = new Set<string>();
  for (const m of models) {
    if (typeof m?.id !== "string" || !m.id || ids.has(m.id)) {
      throw new HarnessError(`model list of provider "${provider.name}" is invalid`);
    }
    ids.add(m.id);
  }
  for (const e of r.models.entries()) {
    const taken = e.value.models.find((m) => ids.has(m.id));
    if (taken) {
      throw new HarnessError(
        `model "${taken.id}" of provider "${p.name}" (${ownerLabel(owner)}) is ` +
          `already offered by provider "${e.key}" (${ownerLabel(e.owner)})`,
        "model ids are unique across providers: give yours another id",
      );
    }
  }
  r.models.register(owner, provider.name, { provider: quietProvider(provider, owner), models });
}
