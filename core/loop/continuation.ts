/**
 * Notes and the continuation decision (DESIGN §5 "Boundaries, notes and
 * continuation"). Plugins leave notes at a boundary; the built-in `receive`
 * hook asks {@link Continuation.shouldContinue} before choosing `done`.
 *
 * @module
 */

/** Kinds of notes (seed 000 §6). */
export type NoteKind = "origin" | "ambient" | "activating";

/** One note left by a plugin. */
export interface Note {
  kind: NoteKind;
  from: string;
  message: string;
  /** "round" or "turn": where it was left. */
  boundary: "round" | "turn";
}

/** The per-turn registry of notes. */
export class Continuation {
  #notes: Note[] = [];
  #cancelled = false;
  /** Origin notes, to be shown to the user. */
  readonly shown: Note[] = [];

  /** Leaves a note. Turn-end activation is rejected. */
  add(note: Note): void {
    if (note.kind === "activating" && note.boundary === "turn") {
      throw new Error("turn-end activation is not allowed; use a round-end note");
    }
    if (note.kind === "origin") {
      this.shown.push(note);
      return;
    }
    this.#notes.push(note);
  }

  /** Marks the turn cancelled: it is never reactivated. */
  cancel(): void {
    this.#cancelled = true;
    this.#notes = [];
  }

  /**
   * At round end: true when any non-empty activating note asks for another
   * round (all requests ORed). Activating notes are consumed; ambient and
   * activating messages move to the context of the next request.
   */
  shouldContinue(): boolean {
    if (this.#cancelled) return false;
    return this.#notes.some((n) => n.kind === "activating" && n.message.trim() !== "");
  }

  /** Context for the next model request; each note is consumed once. */
  takeContext(): string[] {
    const out = this.#notes.filter((n) => n.message.trim() !== "").map((n) => n.message);
    this.#notes = [];
    return out;
  }

  /** Drops unused notes at turn end. */
  expire(): void {
    this.#notes = [];
  }
}
