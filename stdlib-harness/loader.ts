/**
 * The behavior-program loader the harness uses for bots: a loaded program's
 * guards and hooks as seam objects scoped to the bot's agent, its model
 * tools as tool definitions (input validated against the `:input` schema by
 * the host before Scheme runs), and its guards' consent records.
 *
 * @module
 */
import {
  type BehaviorProgram,
  type ProgramLoader,
  textResult,
  type ToolDefinition,
} from "../core/mod.ts";
import { fromJson, type Json, MString, toJson } from "../scheme/mod.ts";
import { type LoadedProgram, loadProgram } from "./program.ts";
import { BehaviorRuntime } from "./runtime.ts";
import { problemOf, toJsonSchema } from "./schema.ts";
import { seamGuard, seamHook } from "./seam.ts";
import { failureReport, reportedGuard, reportedHook } from "./reported.ts";
import { stateModuleOf } from "./state_module.ts";

function toolsOf(
  p: LoadedProgram,
  principal: string,
  log: (text: string) => void,
): ToolDefinition[] {
  return p.registrations.tools.filter((t) => t.kind !== "procedure").map((t) => ({
    name: t.name,
    description: t.description ?? "",
    inputSchema: toJsonSchema(t.input!),
    async execute(input, ctx) {
      const problem = problemOf(t.input!, input);
      if (problem) return textResult(`error: invalid input for ${t.name}: ${problem}`, true);
      try {
        const out = await p.runtime.within(
          {
            kind: "callback",
            scope: { principal, sessionDir: ctx?.sessionDir, boundary: "round", at: "call" },
          },
          () => p.interpreter.call(t.handler, fromJson(input as Json)),
        );
        if (typeof out === "string") return textResult(out);
        if (out instanceof MString) return textResult(out.s);
        return textResult(JSON.stringify(toJson(out)));
      } catch (err) {
        log(failureReport(`tool ${t.name}`, err));
        return textResult(`error: ${t.name} failed: ${(err as Error).message}`, true);
      }
    },
  }));
}

/** Loads a bot's program onto the seam. */
export const programLoader: ProgramLoader = async (req): Promise<BehaviorProgram> => {
  const runtime = new BehaviorRuntime(req.services);
  const p = await loadProgram({
    file: req.file,
    root: req.root,
    configuration: req.configuration,
    log: req.log,
    runtime,
  });
  const scope = {
    appliesTo: req.appliesTo,
    places: req.places,
    owner: `${req.pack}/${req.bot}`,
    runtime,
  };
  const subscribers = p.registrations.subscribers;
  return {
    guards: p.registrations.guards.map((g) =>
      reportedGuard(seamGuard(p.interpreter, g, scope), `guard ${g.id} (${g.point})`, req.log)
    ),
    hooks: p.registrations.hooks.map((h) =>
      reportedHook(seamHook(p.interpreter, h, scope), `hook ${h.id} (${h.point})`, req.log)
    ),
    tools: toolsOf(p, req.principal ?? "", req.log),
    state: p.registrations.reducer ? stateModuleOf(p) : undefined,
    subscribers: subscribers.map((s) => s.name),
    async deliver(event, where) {
      const type = (event as { type?: unknown }).type;
      for (const s of subscribers) {
        if (s.events.length && !s.events.includes(String(type))) continue;
        try {
          await runtime.within(
            { kind: "callback", scope: where },
            () => p.interpreter.call(s.handler, fromJson(event)),
          );
        } catch (err) {
          req.log(failureReport(`subscriber ${s.name}`, err));
        }
      }
    },
    consent: p.registrations.guards.map((g) => ({
      hash: g.hash,
      guard: g.id,
      point: g.point,
      loc: g.loc,
    })),
    validateConfiguration: () => p.validateConfiguration(),
  };
};
