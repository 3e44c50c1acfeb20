/**
 * What `/context` shows, gathered from the harness's public services: the
 * selected provider and model and every provider, the system prompt's
 * sections in the order a request assembles them (with their owners), the
 * tools the main agent may call (owners, schemas, rejected executables), the
 * hooks of each stage in the order they run, the skills, the effect floor and
 * the sources. Plain data: page_context.ts renders it.
 *
 * @module
 */
import {
  EFFECTS,
  errorMessage,
  formatGrant,
  type FrontEnd,
  KNOWN_STAGES,
  ownerLabel,
  skillCatalog,
  type ToolSchema,
} from "../../core/mod.ts";

/** One section of the system prompt. */
export interface PromptPart {
  id: string;
  owner: string;
  /** Its `order` (registered sections), or where it comes from. */
  order: string;
  text: string;
}

/** One hook of a stage. */
export interface HookPart {
  name: string;
  /** `built-in` (with its owner) or the executable's path. */
  owner: string;
  /** A built-in that a same-basename executable replaces. */
  replaced: boolean;
}

/** Everything `/context` shows. */
export interface ContextModel {
  selected: { provider: string; model: string } | { error: string };
  providers: {
    name: string;
    origin: string;
    protocol: string;
    description: string;
    ready: boolean;
    reason: string;
    models: string[];
  }[];
  prompt: PromptPart[];
  tools: { name: string; owner: string; description: string; schema: ToolSchema }[];
  rejectedTools: { path: string; reason: string }[];
  hooks: { stage: string; hooks: HookPart[] }[];
  skills: { name: string; description: string; source: string; path: string }[];
  skillProblems: { path: string; reason: string }[];
  floor?: {
    preset: string;
    grants: { effect: string; grant: string; source: string }[];
    deny: { effect: string; paths: string }[];
    layers: string[];
    rules: { verdict: string; text: string; source: string }[];
    sandbox: string;
    narrower: boolean;
  };
  sources: { dir: string; kind: string }[];
  untrusted: string[];
}

/** A promise that gives up after `ms` (a provider's `--ready` that hangs). */
function within<T>(p: Promise<T>, ms: number, fallback: T): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  return Promise.race([
    p.finally(() => clearTimeout(timer)),
    new Promise<T>((r) => timer = setTimeout(() => r(fallback), ms)),
  ]);
}

/** Gathers the context of the main agent of `h`. */
export async function contextModel(h: FrontEnd): Promise<ContextModel> {
  let selected: ContextModel["selected"];
  try {
    selected = await h.catalog.resolve(h.settings.provider, h.settings.model);
  } catch (err) {
    selected = { error: errorMessage(err) };
  }
  const infos = await h.catalog.providers();
  const providers = await providerParts(infos);
  const protocol = "provider" in selected
    ? infos.find((p) => p.name === (selected as { provider: string }).provider)?.provider
      .protocol ?? ""
    : "";
  const snap = h.catalog.snapshot("provider" in selected ? selected.provider : "", protocol);
  const prompt = await promptParts(h, snap);
  const found = h.catalog.skills();
  const catalog = skillCatalog(found.skills);
  if (catalog) {
    prompt.push({
      id: "skills catalog",
      owner: "assemble/35-skills",
      order: "last",
      text: catalog,
    });
  }
  const tools = await toolParts(h, snap);
  const { problems } = await h.catalog.executableToolSchemas(snap);
  const hooks = hookParts(h, snap);
  const floor = await floorPart(h);
  return {
    selected,
    providers,
    prompt,
    tools,
    rejectedTools: problems.map((p) => ({ path: p.path, reason: p.reason })),
    hooks,
    skills: found.skills.map((s) => ({
      name: s.name,
      description: s.description,
      source: s.source,
      path: s.path,
    })),
    skillProblems: found.problems.map((p) => ({ path: p.path, reason: p.reason })),
    floor,
    sources: snap.sources.map((s) => ({ dir: s.dir, kind: s.kind })),
    untrusted: snap.untrusted,
  };
}

type ProviderInfos = Awaited<ReturnType<FrontEnd["catalog"]["providers"]>>;
type Snap = ReturnType<FrontEnd["catalog"]["snapshot"]>;

/** Every provider with its readiness (a `--ready` that hangs gives up after 5 s). */
function providerParts(infos: ProviderInfos): Promise<ContextModel["providers"]> {
  return Promise.all(infos.map(async (p) => {
    const r = await within(
      p.provider.ready().catch((e) => ({ ready: false, reason: errorMessage(e) })),
      5000,
      { ready: false, reason: "did not answer --ready within 5 s" },
    );
    return {
      name: p.name,
      origin: p.origin,
      protocol: p.provider.protocol,
      description: p.provider.description,
      ready: r.ready,
      reason: r.reason,
      models: p.models ?? [],
    };
  }));
}

/** The system prompt's sections, in the order a request assembles them, then its files. */
async function promptParts(h: FrontEnd, snap: Snap): Promise<PromptPart[]> {
  const sections = h.catalog.prompts().map((e) => ({
    id: e.value.id,
    owner: ownerLabel(e.owner),
    order: e.value.order ?? 100,
    render: () => e.value.render(),
  }));
  const bot = h.packs.prompt("main");
  if (bot) {
    sections.push({
      id: bot.id,
      owner: bot.id.replace(/^bot:/, "behavior:"),
      order: bot.order ?? 100,
      render: () => bot.render(),
    });
  }
  sections.sort((a, b) => a.order - b.order);
  const prompt: PromptPart[] = [];
  for (const s of sections) {
    let text: string;
    try {
      const t = await within(Promise.resolve(s.render()), 5000, undefined);
      text = typeof t === "string" ? t : "(no text: left out of the prompt)";
    } catch {
      text = "(failed: left out of the prompt)";
    }
    prompt.push({ id: s.id, owner: s.owner, order: String(s.order), text });
  }
  for (const f of snap.promptFiles) {
    let text = "";
    try {
      text = Deno.readTextFileSync(f).replace(/\n+$/, "");
    } catch {
      text = "(unreadable)";
    }
    prompt.push({ id: f.split("/").pop() ?? f, owner: f, order: "file", text });
  }
  return prompt;
}

/** The tools the main agent may call (its bot's tools included, its ceiling applied). */
async function toolParts(h: FrontEnd, snap: Snap): Promise<ContextModel["tools"]> {
  const all = await h.catalog.tools(snap);
  for (const t of h.packs.tools()) {
    if (t.principal !== "main") continue;
    all.set(t.def.name, {
      owner: t.owner,
      schema: { name: t.def.name, description: t.def.description, input_schema: t.def.inputSchema },
    });
  }
  const ceiling = h.packs.ceiling("main");
  return [...all.values()]
    .filter((t) => !ceiling || ceiling.has(t.schema.name))
    .map((t) => ({
      name: t.schema.name,
      owner: ownerLabel(t.owner),
      description: t.schema.description,
      schema: t.schema,
    }))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** The hooks of each stage, in the order they run (executables replace built-ins by basename). */
function hookParts(h: FrontEnd, snap: Snap): ContextModel["hooks"] {
  const stages = [
    ...KNOWN_STAGES,
    ...[...snap.hooks.keys()].filter((s) => !KNOWN_STAGES.includes(s)),
  ];
  const owners = h.catalog.hookOwners();
  return stages.map((stage) => {
    const byName = new Map<string, HookPart>();
    for (const b of h.catalog.builtinHooks(stage)) {
      const owner = owners.get(`${stage}/${b.name}`);
      byName.set(b.name, {
        name: b.name,
        owner: owner ? `built-in (${ownerLabel(owner)})` : "built-in",
        replaced: false,
      });
    }
    const out: HookPart[] = [];
    for (const [name, f] of snap.hooks.get(stage) ?? []) {
      const b = byName.get(name);
      if (b) out.push({ ...b, replaced: true });
      byName.set(name, { name, owner: f.path, replaced: false });
    }
    out.push(...byName.values());
    out.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.replaced ? -1 : 1));
    return { stage, hooks: out };
  }).filter((s) => s.hooks.length > 0);
}

/** The effect floor: preset, grants, deny lists, layers, rules and the OS sandbox. */
async function floorPart(h: FrontEnd): Promise<ContextModel["floor"]> {
  const f = h.admin.floor;
  if (!f) return undefined;
  const p = f.resolved.policy;
  const probe = await f.probe();
  return {
    preset: f.preset,
    grants: EFFECTS.map((e) => ({
      effect: e,
      grant: formatGrant(p[e]),
      source: String(f.resolved.sources[e] ?? ""),
    })),
    deny: EFFECTS.filter((e) => p.deny[e].length).map((e) => ({
      effect: e,
      paths: p.deny[e].join(", "),
    })),
    layers: f.resolved.layers.map((l) => `${l.name} (${l.origin})`),
    rules: f.rules.map((r) => ({ verdict: r.verdict, text: r.text, source: r.source })),
    sandbox: probe.ok ? `bubblewrap (${probe.bwrap})` : `unavailable — ${probe.reason}`,
    narrower: f.narrower,
  };
}
