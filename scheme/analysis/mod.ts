/**
 * Static analyses of read (unexpanded) programs: what a top-level form defines, assigns and
 * mentions, and which top-level forms a set of roots can reach.
 *
 * @module
 */
export {
  type Binding,
  ProgramFacts,
  type Reach,
  type ReachOptions,
  type TopLevelFacts,
  topLevelFacts,
} from "./reach.ts";
