import { bySortKey, storedCopy } from './stored-copy.js';

/**
 * The in-memory twin of lib/store/named-item-store.ts (environments, context fields, tag types):
 * members listed by name as their sort keys order them, writes conditional on existence, and a
 * replace that sets only the attributes it is given. test/support/contracts/named-items.ts holds
 * both to that.
 */
export class FakeNamedItems<T extends { name: string }> {
  private readonly members = new Map<string, T>();

  async list(): Promise<T[]> {
    return [...this.members.keys()].sort(bySortKey).map((name) => storedCopy(this.members.get(name) as T));
  }

  async get(name: string): Promise<T | undefined> {
    const member = this.members.get(name);
    return member === undefined ? undefined : storedCopy(member);
  }

  async insert(value: T): Promise<boolean> {
    if (this.members.has(value.name)) return false;
    this.members.set(value.name, storedCopy(value));
    return true;
  }

  async replace(value: Partial<T> & { name: string }): Promise<boolean> {
    const current = this.members.get(value.name);
    if (current === undefined) return false;
    this.members.set(value.name, { ...current, ...storedCopy(value) });
    return true;
  }

  async delete(name: string): Promise<boolean> {
    return this.members.delete(name);
  }
}
