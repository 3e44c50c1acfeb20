/**
 * An owned registry: every entry records its owner, conflicts are rejected,
 * and all entries of an owner are removed when it stops.
 *
 * @module
 */
import { HarnessError, type Owner, ownerLabel } from "../base/mod.ts";

/** One registered entry. */
export interface Entry<T> {
  /** The entry's unique key (e.g. a tool name). */
  key: string;
  /** Who registered it. */
  owner: Owner;
  /** The registered value. */
  value: T;
  /** The principal the entry applies to (absent: every agent). */
  scope?: string;
}

/** The map slot of a key in a scope (a scoped key never collides with an unscoped one). */
function slot(key: string, scope?: string): string {
  return scope === undefined ? key : `${scope}\u0000${key}`;
}

/** A registry of one contribution kind (tools, models, skills, ...). */
export class OwnedRegistry<T> {
  /** What the registry holds, for messages (e.g. "tool"). */
  readonly kind: string;
  #entries = new Map<string, Entry<T>>();

  /** Creates an empty registry of `kind` (used in conflict messages). */
  constructor(kind: string) {
    this.kind = kind;
  }

  /**
   * Registers `value` under `key`; a taken key is rejected, never overwritten. `scope`: the
   * entry applies to that principal only (a behavior pack's bot): it is listed by
   * {@link scoped}, not by {@link entries} or {@link values}, and takes no unscoped key.
   */
  register(owner: Owner, key: string, value: T, scope?: string): void {
    const id = slot(key, scope);
    const taken = this.#entries.get(id);
    if (taken) {
      throw new HarnessError(
        `${this.kind} "${key}"${scope === undefined ? "" : ` of ${scope}`} from ${
          ownerLabel(owner)
        } conflicts with the one from ${ownerLabel(taken.owner)}`,
        `rename one of them; registrations never replace each other`,
      );
    }
    this.#entries.set(
      id,
      scope === undefined ? { key, owner, value } : { key, owner, value, scope },
    );
  }

  /** Removes every entry of an owner. */
  removeOwner(owner: Owner): void {
    const label = ownerLabel(owner);
    for (const [k, e] of this.#entries) {
      if (ownerLabel(e.owner) === label) this.#entries.delete(k);
    }
  }

  /** Keys of one owner, in registration order. */
  keysOf(owner: Owner): string[] {
    const label = ownerLabel(owner);
    return [...this.#entries.values()].filter((e) => ownerLabel(e.owner) === label).map((e) =>
      e.key
    );
  }

  /** The value under `key`. */
  get(key: string): T | undefined {
    return this.#entries.get(key)?.value;
  }

  /** The entry (value and owner) under `key`. */
  entry(key: string): Entry<T> | undefined {
    return this.#entries.get(key);
  }

  /** True when `key` is taken. */
  has(key: string): boolean {
    return this.#entries.has(key);
  }

  /** Entries for every agent (not scoped), in registration order. */
  entries(): Entry<T>[] {
    const out: Entry<T>[] = [];
    for (const e of this.#entries.values()) if (e.scope === undefined) out.push(e);
    return out;
  }

  /** Values for every agent (not scoped), in registration order. */
  values(): T[] {
    const out: T[] = [];
    for (const e of this.#entries.values()) if (e.scope === undefined) out.push(e.value);
    return out;
  }

  /** Entries scoped to one principal, in registration order. */
  scoped(scope: string): Entry<T>[] {
    const out: Entry<T>[] = [];
    for (const e of this.#entries.values()) if (e.scope === scope) out.push(e);
    return out;
  }
}
