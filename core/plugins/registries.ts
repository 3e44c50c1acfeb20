/**
 * Every registry the plugin host fills — tools, model providers, protocols, skills, prompts,
 * hooks, lifecycle subscriptions, auth, pages, commands, pack directories — and the packs'
 * guards, effect hooks and principals; each entry owned, so an owner's contributions are
 * listed and removed together.
 *
 * @module
 */
import type {
  AuthProvider,
  ModelDefinition,
  ModelProvider,
  Owner,
  PromptSource,
  ProtocolAdapter,
  SkillInfo,
  ToolDefinition,
} from "../base/mod.ts";
import type { Guard, Hook } from "../guards/mod.ts";
import type { StageHook } from "../loop/mod.ts";
import type { LifecycleSubscription } from "./lifecycle.ts";
import { OwnedRegistry } from "./registry.ts";
import type { CommandDefinition, PageDefinition } from "./types.ts";

/** A registered model provider with its models. */
export interface ModelEntry {
  /** The provider that serves the models. */
  provider: ModelProvider;
  /** The models it offers (may be empty). */
  models: ModelDefinition[];
}

/** What holds for one principal (an agent, a bot). */
export interface PrincipalProfile {
  /** The only tools it may call (a bot's `tools` list); absent: no ceiling. */
  ceiling?: ReadonlySet<string>;
}

/** Every registry the host fills (and the packs: their guards, hooks, tools, prompts). */
export class Registries {
  /** Tools by name. */
  tools: OwnedRegistry<ToolDefinition> = new OwnedRegistry("tool");
  /** Model providers (with their models) by provider name. */
  models: OwnedRegistry<ModelEntry> = new OwnedRegistry("model provider");
  /** Wire protocol adapters by protocol name. */
  protocols: OwnedRegistry<ProtocolAdapter> = new OwnedRegistry("protocol");
  /** Runtime skills by name. */
  skills: OwnedRegistry<SkillInfo> = new OwnedRegistry("skill");
  /** System prompt sections by id. */
  prompts: OwnedRegistry<PromptSource> = new OwnedRegistry("prompt section");
  /** In-process stage hooks. */
  stageHooks: OwnedRegistry<StageHook> = new OwnedRegistry("hook");
  /** Lifecycle event subscriptions. */
  lifecycle: OwnedRegistry<LifecycleSubscription> = new OwnedRegistry("lifecycle hook");
  /** Auth providers by id. */
  auth: OwnedRegistry<AuthProvider> = new OwnedRegistry("auth provider");
  /** Pages by id. */
  pages: OwnedRegistry<PageDefinition> = new OwnedRegistry("page");
  /** CLI commands by name. */
  commands: OwnedRegistry<CommandDefinition> = new OwnedRegistry("command");
  /** Behavior pack directories contributed by plugins (key: the absolute directory). */
  packs: OwnedRegistry<string> = new OwnedRegistry("behavior pack");
  /** Guards of the effect seam (behavior packs' bots), by id. */
  guards: OwnedRegistry<Guard> = new OwnedRegistry("guard");
  /** Observer hooks of the effect seam (behavior packs' bots), by id. */
  effectHooks: OwnedRegistry<Hook> = new OwnedRegistry("effect hook");
  /** What holds for one principal (a bot's tool ceiling), by principal. */
  principals: OwnedRegistry<PrincipalProfile> = new OwnedRegistry("principal");

  /** Removes every registration of an owner. */
  removeOwner(owner: Owner): void {
    for (const r of this.#all()) r.removeOwner(owner);
  }

  /** What an owner contributed, per registry kind (kinds with nothing are left out). */
  contributions(owner: Owner): Record<string, string[]> {
    const out: Record<string, string[]> = {};
    for (const r of this.#all()) {
      const keys = r.keysOf(owner);
      if (keys.length) out[r.kind] = keys;
    }
    return out;
  }

  #all() {
    return [
      this.tools,
      this.models,
      this.protocols,
      this.skills,
      this.prompts,
      this.stageHooks,
      this.lifecycle,
      this.auth,
      this.pages,
      this.commands,
      this.packs,
      this.guards,
      this.effectHooks,
      this.principals,
    ];
  }
}
