/**
 * Consent for `ask` decisions: in the REPL the user answers once / always
 * (for this session) / never; headless runs deny unless `--yes`. Answers of
 * "always" and "never" are remembered per rule for the life of the floor.
 *
 * @module
 */

/** An answer to a consent question. */
export type Answer = "once" | "always" | "never";

/** Asks the user; resolves to the answer. */
export type Asker = (question: string) => Promise<Answer>;

/** Remembers "always" / "never" per key for one session. */
export class ConsentStore {
  #memory = new Map<string, "always" | "never">();
  #asker?: Asker;
  #yes: boolean;

  /** `asker` undefined = headless. */
  constructor(opts: { asker?: Asker; yes?: boolean }) {
    this.#asker = opts.asker;
    this.#yes = opts.yes === true;
  }

  /** True when interactive prompts are possible. */
  get interactive(): boolean {
    return this.#asker !== undefined;
  }

  /**
   * Resolves an ask: remembered answer, `--yes` (unless `yesApproves: false`: a control
   * path), the prompt, or (headless) no.
   */
  async consent(
    key: string,
    question: string,
    opts: { yesApproves?: boolean } = {},
  ): Promise<boolean> {
    const known = this.#memory.get(key);
    if (known) return known === "always";
    if (this.#yes && opts.yesApproves !== false) return true;
    if (!this.#asker) return false;
    const a = await this.#asker(question);
    if (a === "always" || a === "never") this.#memory.set(key, a);
    return a !== "never";
  }
}
