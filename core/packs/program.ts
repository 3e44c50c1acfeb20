/**
 * What a behavior pack is once read: a loaded program (what it offers the seam), the request
 * a {@link ProgramLoader} is handed to load one for a bot, and the states of packs and bots
 * as `hs packs` lists them. Types only: the loading is loading.ts, the holder packs.ts.
 *
 * @module
 */
import type { Json, ToolDefinition } from "../base/mod.ts";
import type { Guard, Hook, PolicyPlaces } from "../guards/mod.ts";
import type { BehaviorServices, CallbackScope } from "./behavior.ts";
import type { BotSpec } from "./bots.ts";
import type { GuardConsent } from "./consent.ts";
import type { PackManifest } from "./manifest.ts";
import type { StateModule } from "./state.ts";

/** What a program offers the seam once loaded. */
export interface BehaviorProgram {
  /** The guards the program declares. */
  guards: Guard[];
  /** The hooks the program declares. */
  hooks: Hook[];
  /** Model tools of the program (`define/tool` 'tool or 'both). */
  tools: ToolDefinition[];
  /** Each guard's consent record. */
  consent: Omit<GuardConsent, "pack" | "bot">[];
  /** Runs `validate/configuration`; the problem, if any. */
  validateConfiguration(): Promise<string | undefined>;
  /** The program's own reducer and methods (its private state), when it declares them. */
  state?: StateModule;
  /** Names of its `subscribe` subscribers. */
  subscribers?: string[];
  /** Delivers one outbound event to its subscribers (fail open; resolves when they ran). */
  deliver?(event: Json, scope: CallbackScope): Promise<void>;
}

/** Everything a program needs to load for one bot. */
export interface ProgramRequest {
  /** Absolute path of the program. */
  file: string;
  /** Absolute root of the pack. */
  root: string;
  /** The bot's behavior configuration. */
  configuration: Json;
  /** The pack's name. */
  pack: string;
  /** The bot's name. */
  bot: string;
  /** The agents the bot's behavior applies to. */
  appliesTo(principal: string): boolean;
  /** The places effect policies name (workspace, home, ...). */
  places: PolicyPlaces;
  /** Writes a line to the harness log. */
  log(text: string): void;
  /** The host services of the program's callbacks (`call/method`, `self/notify`). */
  services?: BehaviorServices;
  /** The agent the bot's behavior applies to ("main" for a foreground bot). */
  principal?: string;
}

/** Loads a behavior program (supplied by stdlib-harness through the root `mod.ts`). */
export type ProgramLoader = (req: ProgramRequest) => Promise<BehaviorProgram>;

/** How a bot stands. */
export type BotStatus =
  | "attached"
  | "ready"
  | "awaiting approval"
  | "not attached"
  | "no behavior"
  | "disabled";

/** A bot with its state. */
export interface BotState {
  /** The parsed bot. */
  spec: BotSpec;
  /** The pack it belongs to. */
  pack: PackManifest;
  /** How it stands. */
  status: BotStatus;
  /** Why it is not attached (load errors and problems, with file:line:col). */
  reason?: string;
  /** Guards waiting for approval. */
  pending: GuardConsent[];
  /** The loaded behavior program, once it loaded. */
  program?: BehaviorProgram;
  /** The principal its behavior applies to ("main" for the foreground bot). */
  principal: string;
}

/** A pack as listed by `hs packs`. */
export interface PackState {
  /** The pack's directory. */
  dir: string;
  /** Where it was found (the source of its directory). */
  source: string;
  /** The parsed manifest, when it loaded. */
  manifest?: PackManifest;
  /** Why the pack did not load. */
  error?: string;
  /** Load errors of its `states` modules (`file:line:col: message`), once they were checked. */
  stateErrors?: string[];
  /** The pack's bots, with their status. */
  bots: BotState[];
}
