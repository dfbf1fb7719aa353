import type { Tag } from '../../../lib/features/model.js';
import type { TagStore } from '../../../lib/tag-types/store.js';
import { bySortKey } from './stored-copy.js';

/**
 * TagStore in memory; test/support/contracts/tag-store.ts keeps it honest. The adapter keys a
 * tag `TAG#<type>#<value>`, so tags list in that key's order and a type's tags share its prefix.
 */
export class FakeTagStore implements TagStore {
  private readonly tags = new Map<string, Tag>();

  async list(type?: string): Promise<Tag[]> {
    const prefix = type === undefined ? '' : `${type}#`;
    return [...this.tags.keys()]
      .filter((key) => key.startsWith(prefix))
      .sort(bySortKey)
      .map((key) => ({ ...(this.tags.get(key) as Tag) }));
  }

  async insert(tag: Tag): Promise<boolean> {
    const key = `${tag.type}#${tag.value}`;
    if (this.tags.has(key)) return false;
    this.tags.set(key, { type: tag.type, value: tag.value });
    return true;
  }
}
