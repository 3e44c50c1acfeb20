/**
 * The effect floor (DESIGN §5, step 2): a {@link Floor} built from the policy
 * chain (process → user settings → project settings → CLI flags → ceiling)
 * and the permission rules, plus the runtime that enforces the policy for
 * the built-in tools: a permission-narrowed worker for file access and the
 * OS sandbox for child processes.
 *
 * @module
 */
import { dirname, join } from "../early/mod.ts";
import { HarnessError, type ToolEffects, type ToolFs } from "../base/mod.ts";
import type { Decision, Floor } from "./dispatch.ts";
import type { EffectCall } from "./effect.ts";
import { type Asker, ConsentStore } from "./consent.ts";
import { floorSettingsSchema } from "./floor_settings.ts";
import {
  clampToProcess,
  denied,
  type Effect,
  EFFECTS,
  expandPath,
  type FloorSettings,
  formatGrant,
  grants,
  isEmptyLayer,
  type LayerInput,
  layerPolicy,
  narrowerThan,
  narrowingPolicy,
  type PolicyLayer,
  type PolicyPlaces,
  type Preset,
  processLayer,
  type ResolvedPolicy,
  resolvePolicy,
} from "./policy.ts";
import { DEFAULT_RULES, evaluate, parseRule, parseRules, type Rule, subjectOf } from "./rules.ts";
import {
  AGENT_ROOMS,
  type ControlLayout,
  controlLayout,
  controlMountPlan,
  controlTarget,
  shownPath,
} from "./protect.ts";
import { openWorkerFs, OsSandbox, type WorkerFs, type WorkerPermissions } from "../sandbox/mod.ts";

/** MCP tool names that write (their `path` argument needs the write policy). */
const MCP_WRITES = /write|edit|create|move|delete|remove|rename|mkdir|upload|save/i;

/** What the command line asks of the floor. */
export interface FloorRequest {
  /** `--floor read-only|workspace|full`. */
  preset?: Preset;
  /** `--allow-read/-write/-net/-run/-env` (lists, or "all"). */
  allow?: Partial<Record<Effect, "all" | string[]>>;
  /** `--deny-*`. */
  deny?: Partial<Record<Effect, string[]>>;
  /** Approve every `ask` (headless). */
  yes?: boolean;
  /** Run child processes without an OS sandbox when none is available. */
  unsandboxed?: boolean;
  /** Prompts for `ask` decisions (the REPL); absent = headless. */
  asker?: Asker;
  /** A bot's effect ceiling, applied last. */
  ceiling?: LayerInput;
  /** Where notices go (once per process for a missing sandbox). */
  warn?: (line: string) => void;
  /**
   * Rules from another layout's settings (a Claude Code project's `permissions`): `deny`
   * and `ask` only, so they narrow and never widen; one that does not parse is left out.
   */
  narrowing?: { verdict: "deny" | "ask"; text: string; source: string }[];
}

/** Where the floor lives. */
export interface FloorPlaces extends PolicyPlaces {
  /** The process environment (PATH, HARNESS_BWRAP). */
  env: Record<string, string | undefined>;
  /** Whether a workspace's `.harness/` is trusted (its allow rules count only then). */
  isTrusted(dir: string): boolean;
  /** hs's own state outside the home (sessions directory, log): never writable by tools. */
  state?: string[];
}

function readSettings(path: string): FloorSettings | undefined {
  let text: string;
  try {
    text = Deno.readTextFileSync(path);
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) return undefined;
    throw new HarnessError(`cannot read ${path}: ${(err as Error).message}`);
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    throw new HarnessError(
      `${path} is not valid JSON`,
      "fix it or remove it (see docs/security.md)",
    );
  }
  const r = floorSettingsSchema().safeParse(data);
  if (!r.success) {
    const issue = r.error.issues[0];
    throw new HarnessError(
      `${path}: ${issue.path.join(".") || "(top)"}: ${issue.message}`,
      'floor.json holds {"preset", "allow": {read,write,net,run,env}, "deny": {...}, "rules": {allow,ask,deny}}',
    );
  }
  return r.data;
}

/** Project `floor.json` files from `/` down to the workspace (the home's own excluded). */
function projectSettingsFiles(workspace: string, home: string): string[] {
  const out: string[] = [];
  let cur = workspace;
  for (;;) {
    const f = join(cur, ".harness", "floor.json");
    if (join(cur, ".harness") !== home) out.unshift(f);
    const up = dirname(cur);
    if (up === cur) break;
    cur = up;
  }
  return out;
}

function settingsLayer(s: FloorSettings): LayerInput {
  return { preset: s.preset, allow: s.allow, deny: s.deny };
}

/** `over` applied on top of `base`: its preset replaces, its allows and denials add. */
function mergeLayers(base: LayerInput, over: LayerInput): LayerInput {
  const allow: LayerInput["allow"] = { ...base.allow };
  const deny: LayerInput["deny"] = { ...base.deny };
  for (const e of EFFECTS) {
    const a = over.allow?.[e];
    const prev = allow[e];
    if (a !== undefined) {
      allow[e] = a === "all" || a === "none" || prev === undefined || typeof prev === "string"
        ? a
        : [...prev, ...a];
    }
    if (over.deny?.[e]?.length) deny[e] = [...(deny[e] ?? []), ...over.deny[e]!];
  }
  return { preset: over.preset ?? base.preset, allow, deny };
}

/** The effect floor. */
export class EffectFloor implements Floor {
  /** The effective policy with the layer behind each effect. */
  readonly resolved: ResolvedPolicy;
  /** The permission rules, in order. */
  readonly rules: Rule[];
  /** The places the policy's placeholders point to. */
  readonly places: FloorPlaces;
  /** The OS sandbox child processes run in. */
  readonly sandbox: OsSandbox;
  /** True when the policy grants less than the process holds (children need the OS sandbox). */
  readonly narrower: boolean;
  /** File access and the sandbox, as tools get them. */
  readonly effects: ToolEffects;
  /** The control paths: the home's are never written, the others ask (never `--yes`). */
  readonly control: ControlLayout;
  #consent: ConsentStore;
  /** Real paths of control files the user approved a write to (at its ask). */
  #approved = new Set<string>();
  /** Allow rules the user added for this process (`/permissions allow`): they answer asks. */
  #sessionAllows: Rule[] = [];
  #toolCalls = 0;
  #fs?: WorkerFs;
  #processPartial: Effect[];
  #preset: string;
  #warn: (line: string) => void;

  private constructor(
    resolved: ResolvedPolicy,
    rules: Rule[],
    places: FloorPlaces,
    req: FloorRequest,
    processPartial: Effect[],
    preset: string,
  ) {
    this.resolved = resolved;
    this.rules = rules;
    this.places = places;
    this.#processPartial = processPartial;
    this.#preset = preset;
    this.#warn = req.warn ?? ((l) => console.error(l));
    this.narrower = narrowerThan(resolved.policy, resolved.layers[0].policy);
    this.#consent = new ConsentStore({ asker: req.asker, yes: req.yes });
    this.control = controlLayout(places);
    const mounts = controlMountPlan(this.control);
    this.sandbox = new OsSandbox({
      policy: resolved.policy,
      narrower: this.narrower,
      readOnly: [...mounts.readOnly, ...mounts.pinned],
      control: mounts,
      env: places.env,
      userHome: places.userHome,
      unsandboxed: req.unsandboxed === true,
      warn: req.warn ?? ((l) => console.error(l)),
    });
    const fs: ToolFs = {
      stat: (p) => this.#workerFs().stat(p),
      readFile: (p) => this.#workerFs().readFile(p),
      writeFileAtomic: (p, d) => this.#workerFs().writeFileAtomic(p, d, [...this.#approved]),
    };
    this.effects = { fs, sandbox: this.sandbox };
  }

  /**
   * Builds the floor. The chain is: the process's own permissions; the user level —
   * `$HARNESS_HOME/floor.json` (or the default `workspace` preset) with the command line's
   * flags applied on top (a flag's preset replaces, its allows add); then each project's
   * `.harness/floor.json`, which can only narrow what the user level allows; then a bot's
   * ceiling. Nothing a workspace holds can widen the floor.
   */
  static build(req: FloorRequest, places: FloorPlaces): EffectFloor {
    const proc = processLayer();
    const layers: PolicyLayer[] = [proc];
    const rules = parseRules(DEFAULT_RULES, "default");
    const userFile = join(places.home, "floor.json");
    const user = readSettings(userFile);
    if (user) rules.push(...parseRules(user.rules, userFile));
    const flags: LayerInput = { preset: req.preset, allow: req.allow, deny: req.deny };
    const userInput = mergeLayers(user ? settingsLayer(user) : {}, flags);
    const origin = [user ? userFile : "", isEmptyLayer(flags) ? "" : "command line"]
      .filter(Boolean).join(" + ") || "preset workspace (default)";
    let preset = userInput.preset
      ? `${userInput.preset} (${req.preset ? "command line" : userFile})`
      : "workspace (default)";
    layers.push({ name: "user", origin, policy: layerPolicy(userInput, places) });
    for (const f of projectSettingsFiles(places.workspace, places.home)) {
      const s = readSettings(f);
      if (!s) continue;
      const trusted = places.isTrusted(dirname(dirname(f)));
      rules.push(...parseRules(trusted ? s.rules : { ...s.rules, allow: [] }, f));
      const l = settingsLayer(s);
      if (isEmptyLayer(l)) continue;
      if (l.preset) preset += ` → ${l.preset} (${f})`;
      layers.push({ name: "project", origin: f, policy: narrowingPolicy(l, places) });
    }
    for (const r of req.narrowing ?? []) {
      if (r.verdict !== "deny" && r.verdict !== "ask") continue;
      try {
        rules.push(parseRule(r.text, r.verdict, r.source));
      } catch { /* listed by hs doctor */ }
    }
    if (req.ceiling) {
      layers.push({
        name: "ceiling",
        origin: "bot effect ceiling",
        policy: narrowingPolicy(req.ceiling, places),
      });
    }
    const resolved = resolvePolicy(layers);
    resolved.policy = clampToProcess(resolved.policy, proc.partial);
    return new EffectFloor(resolved, rules, places, req, proc.partial, preset);
  }

  /** Why the file tools' worker could not start, once it was tried and failed. */
  get fileToolsFailure(): string | undefined {
    return this.#fs?.failure;
  }

  /** The preset in force and who chose it. */
  get preset(): string {
    return this.#preset;
  }

  #workerFs(): WorkerFs {
    if (!this.#fs) {
      const p = this.resolved.policy;
      const perm = (e: Effect): boolean | "inherit" | string[] => {
        const g = p[e];
        if (g === "all") return this.#processPartial.includes(e) ? "inherit" : true;
        return g.length === 0 ? false : [...g];
      };
      const perms: WorkerPermissions = {
        read: perm("read"),
        write: perm("write"),
        net: perm("net"),
        env: perm("env"),
        run: false,
        ffi: false,
        sys: false,
        import: false,
      };
      this.#fs = openWorkerFs(
        perms,
        {
          read: p.deny.read,
          write: p.deny.write,
          control: {
            home: this.control.home,
            state: this.control.state,
            harnessDirs: this.control.harnessDirs,
            rooms: [...AGENT_ROOMS],
            others: this.control.others,
          },
        },
        (kind, path, detail) => this.#explain(kind, path, detail),
      );
      // a file tool that cannot work is the harness's failure, never only the model's news
      if (this.#fs.failure) this.#warn(`hs: the file tools cannot work: ${this.#fs.failure}`);
    }
    return this.#fs;
  }

  #explain(kind: "read" | "write", path: string, detail: string): string {
    const p = this.resolved.policy;
    if (/is a control path/.test(detail)) {
      return `denied by the effect floor (rule floor.protect): ${detail}`;
    }
    if (denied(kind, p.deny[kind], path) || /deny list/.test(detail)) {
      return `denied by the effect floor (rule floor.deny.${kind}: ${path} is a protected file)`;
    }
    const real = /"([^"]+)"/.exec(detail)?.[1] ?? path;
    // the process's own limits (the worker holds their intersection with the policy)
    const narrowed = (this.#fs?.narrowed ?? []).filter((n) => n.startsWith(`${kind}:`));
    if (narrowed.length && grants(kind, p[kind], real)) {
      return `denied by the process's permissions (${narrowed.join("; ")}): ${detail}`;
    }
    return `denied by the effect floor (rule floor.${kind}: ` +
      `${formatGrant(p[kind])}, from ${this.resolved.sources[kind]}): ${detail}. ` +
      `To allow it: --allow-${kind} ${dirname(real)}`;
  }

  /** Path-level decision for a file effect, or undefined when the policy grants it. */
  #pathDecision(kind: "read" | "write", path: string): Decision | undefined {
    const p = this.resolved.policy;
    const target = kind === "write" ? controlTarget(path, this.control) : undefined;
    if (target?.control?.kind === "home") {
      return {
        decision: "deny",
        rule: "floor.protect",
        reason: `${shownPath(target)} is the harness's own state (${target.control.root}); ` +
          "tools never change it — edit it yourself if you mean to",
      };
    }
    if (denied(kind, p.deny[kind], path)) {
      return {
        decision: "deny",
        rule: `floor.deny.${kind}`,
        reason: `${path} is protected (never ${
          kind === "read" ? "readable" : "writable"
        } by tools)`,
      };
    }
    if (target?.control && grants(kind, p[kind], path)) {
      return {
        decision: "ask",
        rule: "floor.protect",
        reason: `${shownPath(target)} is a control path (${target.control.root}): it decides ` +
          "what runs outside the sandbox or what the floor allows; only you can approve " +
          "writing it (headless runs and --yes never do)",
      };
    }
    if (!grants(kind, p[kind], path)) {
      return {
        decision: "deny",
        rule: `floor.${kind}`,
        reason: `${path} is outside the effect policy (${kind}: ${formatGrant(p[kind])}, from ${
          this.resolved.sources[kind]
        }); to allow it: --allow-${kind} ${dirname(path)}`,
      };
    }
    return undefined;
  }

  /** Allow / ask / deny for one call: the policy first, then the rules (deny first). */
  async decide(call: EffectCall): Promise<Decision> {
    this.#toolCalls++;
    const subject = subjectOf(call.tool, call.input, this.places);
    const p = this.resolved.policy;
    if (subject.path !== undefined) {
      const kinds: ("read" | "write")[] = call.point === "read"
        ? ["read"]
        : call.point === "write"
        ? ["write"]
        : call.point === "edit"
        ? ["read", "write"]
        : call.point === "mcp"
        // an MCP tool's `path` argument is held to the policy too (the server itself runs
        // in the OS sandbox when the policy is narrower than the process)
        ? (MCP_WRITES.test(call.tool) ? ["write", "read"] : ["read"])
        : [];
      for (const k of kinds) {
        const d = this.#pathDecision(k, subject.path);
        if (d) return d;
      }
    }
    if (subject.shell) {
      for (const c of subject.shell.commands) {
        if (!grants("run", p.run, c[0]) || denied("run", p.deny.run, c[0])) {
          return {
            decision: "deny",
            rule: "floor.run",
            reason: `\`${c[0]}\` is not an allowed executable (run: ${
              formatGrant(p.run)
            }, from ${this.resolved.sources.run}); to allow it: --allow-run ${c[0]}`,
          };
        }
      }
      for (const w of subject.shell.writes) {
        if (/^\/dev\/(null|stdout|stderr|fd\/|tty)/.test(w) || w.includes("$") || w.includes("…")) {
          continue;
        }
        const target = expandPath(w, this.places);
        const d = this.#pathDecision("write", target);
        if (
          d && d.rule !== "floor.protect" &&
          await this.sandbox.privateTmp(target, [this.places.workspace, this.places.home])
        ) {
          continue; // the sandboxed shell's own /tmp: nothing reaches the host
        }
        if (d?.rule === "floor.protect") {
          // bash sees control files read-only: say so instead of asking for nothing
          return {
            decision: "deny",
            rule: "floor.protect",
            reason: `redirection to ${d.reason}; bash may not write it (write_file asks you first)`,
          };
        }
        if (d) return { ...d, reason: `redirection to ${d.reason}` };
      }
    }
    const r = evaluate(this.rules, subject, this.places, "allow");
    if (r.verdict === "deny") return { decision: "deny", rule: r.rule, reason: r.reason };
    if (call.point === "shell" || call.owner.kind === "executable") {
      const what = call.owner.kind === "executable" ? call.owner.path : call.tool;
      const refusal = await this.sandbox.refusal(what);
      if (refusal) return { decision: "deny", rule: "floor.sandbox", reason: refusal };
    }
    return { decision: r.verdict, rule: r.rule, reason: r.reason };
  }

  /** Resolves an ask: the REPL prompts; headless denies unless `--yes`. */
  async ask(call: EffectCall, d: Decision): Promise<boolean> {
    const subject = subjectOf(call.tool, call.input, this.places);
    if (d.rule === "floor.protect" && subject.path !== undefined) {
      // a control path: asked with its resolved path, per path, and never approved by --yes
      const t = controlTarget(subject.path, this.control);
      const ok = await this.#consent.consent(
        `${call.tool}\u0000${d.rule}\u0000${t.real}`,
        `\nhs: the agent wants to ${call.tool} ${shownPath(t)}, a control path ` +
          `(${t.control?.root ?? t.real}): what it holds runs outside the sandbox or decides ` +
          "the floor.\nAllow? [o]nce / [a]lways this session / [n]ever: ",
        { yesApproves: false },
      );
      if (ok) this.#approved.add(t.real);
      return ok;
    }
    if (evaluate(this.#sessionAllows, subject, this.places, "ask").verdict === "allow") {
      return true; // the user answered this question beforehand (/permissions allow)
    }
    const what = subject.shell
      ? `run \`${String((call.input as { command?: string }).command).slice(0, 200)}\``
      : subject.path
      ? `${call.tool} ${subject.path}`
      : call.tool;
    return this.#consent.consent(
      `${call.tool}\u0000${d.rule}`,
      `\nhs: the agent wants to ${what} (rule ${d.rule}).\n` +
        "Allow? [o]nce / [a]lways this session / [n]ever: ",
    );
  }

  /**
   * Adds an allow rule for this process only (the REPL's `/permissions allow`), parsed by
   * the floor's own rule parser (a bad rule throws with a fix hint). It answers the asks
   * of the calls it matches; it never lifts a deny, the policy, or a control path's ask.
   */
  allowForSession(text: string): Rule {
    const rule = parseRule(text, "allow", "this session (/permissions allow)");
    this.#sessionAllows.push(rule);
    return rule;
  }

  /** The rules in force, with where each came from (the session's allows last). */
  allRules(): readonly Rule[] {
    return [...this.rules, ...this.#sessionAllows];
  }

  /** Lines describing the effective policy and where each part came from. */
  describe(): string[] {
    const p = this.resolved.policy;
    const s = this.resolved.sources;
    const lines = [`preset   ${this.#preset}`];
    for (const e of EFFECTS) {
      let g = formatGrant(p[e]);
      if (e === "env" && p.env !== "all") g += " (+ PATH, HOME, LANG, TERM, HARNESS_* …)";
      lines.push(`${e.padEnd(8)} ${g}  ← ${s[e]}`);
    }
    for (const e of EFFECTS) {
      if (p.deny[e].length) lines.push(`deny ${e.padEnd(4)} ${p.deny[e].join(", ")}`);
    }
    lines.push(
      `layers   ${this.resolved.layers.map((l) => `${l.name} (${l.origin})`).join(" → ")}`,
    );
    lines.push(`protect  deny writes to ${this.control.home} (the harness home, all of it)`);
    lines.push(
      `         ask before writing .harness/ of ${this.places.workspace} and above ` +
        `but its rooms {${AGENT_ROOMS.join(",")}}, .mcp.json, ` +
        `${this.control.gitDir ?? ".git"}/{hooks,config,info,…} ` +
        "(resolved paths; --yes never approves; bash: read-only)",
    );
    lines.push(
      `children ${
        this.narrower
          ? "OS sandbox required (policy narrower than process)"
          : "no narrowing: run directly"
      }`,
    );
    lines.push("rules (deny first, then ask, then allow):");
    for (const r of this.allRules()) {
      lines.push(`  ${r.verdict.padEnd(5)} ${r.text}  ← ${r.source}`);
    }
    return lines;
  }

  /** Tool calls this floor decided (boundaries excluded): did the agent act at all? */
  get toolCalls(): number {
    return this.#toolCalls;
  }

  /** Real paths of control files the user approved writing (at their ask). */
  approvedControlWrites(): string[] {
    return [...this.#approved];
  }

  /** Releases the file worker. */
  close(): void {
    this.#fs?.close();
    this.#fs = undefined;
  }
}
