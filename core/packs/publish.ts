/**
 * The packs' contributions as registry entries, like those of executables
 * and runtime plugins: each attached bot's guards and effect hooks (for every
 * agent: a guard's own match says whom it applies to), its tools scoped to
 * its principal, and per principal its bot's prompt (scoped) and tool
 * ceiling (a property of the principal). The bot is the entries' owner.
 * Published again whenever a bot's status changes.
 *
 * @module
 */
import type { Owner, ToolDefinition } from "../base/mod.ts";
import type { Guard, Hook } from "../guards/mod.ts";
import type { Registries } from "../plugins/mod.ts";

/** What publishing reads of a bot (a `PublishedBot`). */
export interface PublishedBot {
  /** Its pack. */
  pack: { name: string };
  /** Its name, prompt and tool list. */
  spec: { name: string; prompt: string; tools?: string[] };
  /** How it stands. */
  status: string;
  /** The principal it applies to. */
  principal: string;
  /** Its loaded program. */
  program?: { guards: Guard[]; hooks: Hook[]; tools: ToolDefinition[] };
}

/** The registries packs contribute to. */
export type PackRegistries = Pick<
  Registries,
  "guards" | "effectHooks" | "tools" | "prompts" | "principals"
>;

/** The owner of a bot's entries. */
function ownerOf(b: PublishedBot): Owner {
  return { kind: "behavior", pack: b.pack.name, bot: b.spec.name };
}

/** A bot whose prompt and ceiling hold (attached, or a bot without a behavior). */
function standing(b: PublishedBot): boolean {
  return b.status === "attached" || b.status === "no behavior";
}

/** Publishes the packs' contributions into the registries, replacing what it published before. */
export class PackPublisher {
  #r: PackRegistries;
  #owners: Owner[] = [];

  /** Creates a publisher into `registries`. */
  constructor(registries: PackRegistries) {
    this.#r = registries;
  }

  /** Withdraws the last publication and publishes the bots as they stand now. */
  publish(bots: PublishedBot[]): void {
    const r = this.#r;
    for (const o of this.#owners) {
      for (const reg of [r.guards, r.effectHooks, r.tools, r.prompts, r.principals]) {
        reg.removeOwner(o);
      }
    }
    const owners = new Map<string, Owner>();
    const own = (b: PublishedBot) => {
      const o = ownerOf(b);
      owners.set(`${o.kind}:${b.pack.name}/${b.spec.name}`, o);
      return o;
    };
    // a later bot's tool of the same name wins for its principal (as the per-run merge did)
    const tools = new Map<string, Map<string, { b: PublishedBot; def: ToolDefinition }>>();
    for (const b of bots) {
      if (b.status !== "attached" || !b.program) continue;
      const owner = own(b);
      const id = `${b.pack.name}/${b.spec.name}`;
      b.program.guards.forEach((g, i) => r.guards.register(owner, `${id}#${i}:${g.id}`, g));
      b.program.hooks.forEach((h, i) => r.effectHooks.register(owner, `${id}#${i}:${h.id}`, h));
      const mine = tools.get(b.principal) ?? new Map();
      for (const def of b.program.tools) mine.set(def.name, { b, def });
      tools.set(b.principal, mine);
    }
    for (const [principal, mine] of tools) {
      for (const { b, def } of mine.values()) r.tools.register(own(b), def.name, def, principal);
    }
    for (const principal of new Set(bots.filter(standing).map((b) => b.principal))) {
      const first = bots.find((x) => x.principal === principal && standing(x))!;
      if (first.spec.prompt) {
        const prompt = first.spec.prompt;
        const id = `bot:${first.pack.name}/${first.spec.name}`;
        r.prompts.register(own(first), id, { id, order: 50, render: () => prompt }, principal);
      }
      const limited = bots.find((x) => x.principal === principal && x.spec.tools && standing(x));
      if (limited) {
        r.principals.register(own(limited), principal, { ceiling: new Set(limited.spec.tools) });
      }
    }
    this.#owners = [...owners.values()];
  }
}
