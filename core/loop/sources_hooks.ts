/**
 * The `sources` stage (PROTOCOLS "Discovery"): before anything else is discovered, its
 * chain prints `{"sources": [dir, …]}`, lowest priority first. The built-in
 * `30-walk-dirs` (the reference's name) emits hs's own list; executable hooks from
 * `$HARNESS_HOME` (and trusted projects) may add, drop or reorder directories before or
 * after it, or replace it by its basename.
 *
 * @module
 */
import { type StageHook, stageHook } from "./stage.ts";

/** The built-in hooks of the `sources` stage. */
export const sourcesHooks: StageHook[] = [
  stageHook({
    stage: "sources",
    name: "30-walk-dirs",
    run(input, ctx) {
      return Promise.resolve({ ...input, sources: ctx.walk() });
    },
  }),
];

/** The list a `sources` chain printed: absolute directory paths; undefined when malformed. */
export function listedSources(output: Record<string, unknown>): string[] | undefined {
  const list = output.sources;
  if (!Array.isArray(list)) return undefined;
  const dirs = list.filter((d): d is string => typeof d === "string" && d.startsWith("/"))
    .map((d) => (d.length > 1 ? d.replace(/\/+$/, "") : d));
  return dirs.length === list.length ? dirs : undefined;
}
