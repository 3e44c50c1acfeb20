/**
 * Notes and the continuation decision (DESIGN §5 "Boundaries, notes and
 * continuation"; seed 000 §6). Plugins leave notes at a boundary:
 *
 * - an *origin* note is shown (an event) and never continues the loop;
 * - an *ambient* note is context for the next model request only;
 * - an *activating* note is context too and, left at a round end with a
 *   non-empty message, asks for another round.
 *
 * When the model ends a round without tool calls, the turn asks
 * {@link Continuation.shouldContinue}: every plugin's activating notes and the
 * loop-end addenda are ORed into that one decision. Turn-end activation is
 * rejected; a cancelled turn is never reactivated; each note is consumed
 * once; unused notes expire with the turn.
 *
 * @module
 */

/** Kinds of notes (seed 000 §6). */
export type NoteKind = "origin" | "ambient" | "activating";

/** One note left by a plugin. */
export interface Note {
  /** How the note is delivered (shown, context only, or reactivating the loop). */
  kind: NoteKind;
  /** Who left it (e.g. `pack/bot`). */
  from: string;
  /** The note's text. */
  message: string;
  /** "round" or "turn": where it was left. */
  boundary: "round" | "turn";
  /**
   * When: at the boundary's start, its end, or during a call inside a round. A turn note
   * without `at` counts as its end (the only place turn notes could be left before).
   */
  at?: "start" | "end" | "call";
}

/** The per-turn registry of notes. */
export class Continuation {
  #notes: Note[] = [];
  #addenda: string[] = [];
  #cancelled = false;
  /** Origin notes, to be shown to the user. */
  readonly shown: Note[] = [];

  /** Leaves a note. Turn-end activation is rejected (an error). */
  add(note: Note): void {
    if (note.kind === "activating" && note.boundary === "turn" && note.at !== "start") {
      throw new Error("turn-end activation is rejected: use a round-end note");
    }
    if (note.kind === "origin") {
      this.shown.push(note);
      return;
    }
    if (this.#cancelled) return;
    this.#notes.push(note);
  }

  /** A loop-end addendum (a non-empty text asks for another round). */
  addendum(text: string): void {
    if (!this.#cancelled && text.trim() !== "") this.#addenda.push(text);
  }

  /** Marks the turn cancelled: it is never reactivated. */
  cancel(): void {
    this.#cancelled = true;
    this.#notes = [];
    this.#addenda = [];
  }

  /** True once the turn was cancelled. */
  get cancelled(): boolean {
    return this.#cancelled;
  }

  #activating(n: Note): boolean {
    return n.kind === "activating" && n.boundary === "round" && (n.at ?? "end") === "end" &&
      n.message.trim() !== "";
  }

  /**
   * The continuation decision when the model ended a round: true when any round-end
   * activating note (of any plugin) or any loop-end addendum asks for another round.
   */
  shouldContinue(): boolean {
    if (this.#cancelled) return false;
    return this.#addenda.length > 0 || this.#notes.some((n) => this.#activating(n));
  }

  /**
   * Takes what asked for the new round (activating messages, then addenda): the next
   * request's closing user message. Consumed once.
   */
  activate(): string[] {
    const out = this.#notes.filter((n) => this.#activating(n)).map((n) => n.message);
    this.#notes = this.#notes.filter((n) => !this.#activating(n));
    out.push(...this.#addenda);
    this.#addenda = [];
    return out;
  }

  /** Context for the next model request; each note is consumed once. */
  takeContext(): string[] {
    const out = this.#notes.filter((n) => n.message.trim() !== "").map((n) => n.message);
    this.#notes = [];
    return out;
  }

  /** Drops unused notes and addenda at turn end. */
  expire(): void {
    this.#notes = [];
    this.#addenda = [];
  }
}
