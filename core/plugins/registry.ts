/**
 * An owned registry: every entry records its owner, conflicts are rejected,
 * and all entries of an owner are removed when it stops.
 *
 * @module
 */
import { HarnessError } from "../base/errors.ts";

/** One registered entry. */
export interface Entry<T> {
  key: string;
  owner: string;
  value: T;
}

/** A registry of one contribution kind (tools, models, skills, ...). */
export class OwnedRegistry<T> {
  readonly kind: string;
  #entries = new Map<string, Entry<T>>();

  constructor(kind: string) {
    this.kind = kind;
  }

  /** Registers `value` under `key`; a taken key is rejected, never overwritten. */
  register(owner: string, key: string, value: T): void {
    const taken = this.#entries.get(key);
    if (taken) {
      throw new HarnessError(
        `${this.kind} "${key}" from ${owner} conflicts with the one from ${taken.owner}`,
        `rename one of them; registrations never replace each other`,
      );
    }
    this.#entries.set(key, { key, owner, value });
  }

  /** Removes every entry of an owner. */
  removeOwner(owner: string): void {
    for (const [k, e] of this.#entries) if (e.owner === owner) this.#entries.delete(k);
  }

  get(key: string): T | undefined {
    return this.#entries.get(key)?.value;
  }

  entry(key: string): Entry<T> | undefined {
    return this.#entries.get(key);
  }

  has(key: string): boolean {
    return this.#entries.has(key);
  }

  /** Entries in registration order. */
  entries(): Entry<T>[] {
    return [...this.#entries.values()];
  }

  values(): T[] {
    return [...this.#entries.values()].map((e) => e.value);
  }
}
