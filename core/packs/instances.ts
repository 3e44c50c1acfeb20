/**
 * Where a named bot's one instance lives (seed 000 §2: "scope is session (default), project, or
 * global, and names where one instance lives"). A session-scope bot has one instance — one
 * loaded copy of its program, with its own top-level variables — per conversation session: the
 * program the host publishes routes every guard, hook, tool and subscriber call to the instance
 * of the conversation it runs for, and loads another copy for a conversation it has not seen
 * (its guards must hash as approved). A project or global bot has one instance per process (a
 * process serves one project); what its instances share across processes is its state, a log
 * of its scope (states.ts `botState`).
 *
 * @module
 */
import type { Guard, Hook } from "../guards/mod.ts";
import type { ToolContext } from "../contracts/mod.ts";
import type { BehaviorProgram } from "./program.ts";

/** Finds the conversation session id of a run (by its session id or directory). */
export type ConversationOf = (session?: string, sessionDir?: string) => string | undefined;

/** Checks that a newly loaded copy has the approved guards (same hashes, same order). */
function sameGuards(first: BehaviorProgram, copy: BehaviorProgram): void {
  const hashes = (p: BehaviorProgram) => p.consent.map((c) => c.hash).join(",");
  if (hashes(first) !== hashes(copy)) {
    throw new Error(
      "the program changed since its guards were approved (another session's instance would " +
        "run unapproved guards): approve them again with hs packs approve",
    );
  }
}

/**
 * A session-scope bot's program as published: `first` for the first conversation that calls
 * it (and for calls outside any run), another copy from `load` for each other conversation.
 */
export function perConversation(
  first: BehaviorProgram,
  conversationOf: ConversationOf,
  load: () => Promise<BehaviorProgram>,
): BehaviorProgram {
  const instances = new Map<string, Promise<BehaviorProgram>>();
  const instance = (session?: string, dir?: string): Promise<BehaviorProgram> => {
    const key = conversationOf(session, dir);
    if (key === undefined) return Promise.resolve(first);
    let p = instances.get(key);
    if (!p) {
      p = instances.size === 0 ? Promise.resolve(first) : load().then((copy) => {
        sameGuards(first, copy);
        return copy;
      });
      instances.set(key, p);
      p.catch(() => instances.delete(key));
    }
    return p;
  };
  const guards = first.guards.map((g, i): Guard => ({
    ...g,
    middleware: async (raw, invoke, call) =>
      await (await instance(call.session)).guards[i].middleware(raw, invoke, call),
  }));
  const hooks = first.hooks.map((h, i): Hook => ({
    ...h,
    pre: h.pre &&
      (async (value, call) => await (await instance(call.session)).hooks[i].pre?.(value, call)),
    post: h.post &&
      (async (value, result, call) =>
        await (await instance(call.session)).hooks[i].post?.(value, result, call)),
    postFail: h.postFail &&
      (async (value, failure, call) =>
        await (await instance(call.session)).hooks[i].postFail?.(value, failure, call)),
  }));
  const tools = first.tools.map((t, i) => ({
    ...t,
    execute: async (input: unknown, ctx: ToolContext) =>
      await (await instance(undefined, ctx?.sessionDir)).tools[i].execute(input, ctx),
  }));
  return {
    ...first,
    guards,
    hooks,
    tools,
    deliver: first.deliver &&
      (async (event, where) =>
        await (await instance(where.session, where.sessionDir)).deliver?.(event, where)),
  };
}
