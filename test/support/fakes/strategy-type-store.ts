import type { StrategyType } from '../../../lib/strategies/model.js';
import type { StoredStrategyType, StrategyTypeStore } from '../../../lib/strategies/store.js';
import { bySortKey, storedCopy } from './stored-copy.js';

/**
 * One stored item, as lib/strategies/dynamo-store.ts writes it: a custom type's fields with
 * `builtIn: false`, or a built-in type's overlay (`builtIn: true`, its name and `deprecated`).
 * `usageMark` is absent until a feature first uses the type.
 */
type Item = Record<string, unknown> & { name: string; builtIn: boolean; usageMark?: number };

/** StrategyTypeStore in memory; test/support/contracts/strategy-type-store.ts keeps it honest. */
export class FakeStrategyTypeStore implements StrategyTypeStore {
  private readonly items = new Map<string, Item>();

  async list(): Promise<StoredStrategyType[]> {
    return [...this.items.keys()].sort(bySortKey).map((name) => toStored(this.items.get(name) as Item));
  }

  async get(name: string): Promise<StoredStrategyType | undefined> {
    const item = this.items.get(name);
    return item === undefined ? undefined : toStored(item);
  }

  async insert(type: StrategyType): Promise<boolean> {
    if (this.items.has(type.name)) return false;
    this.items.set(type.name, { builtIn: false, ...storedCopy(type) });
    return true;
  }

  async replace(type: StrategyType): Promise<boolean> {
    const item = this.items.get(type.name);
    if (item === undefined || item.builtIn) return false;
    this.items.set(type.name, { ...item, ...storedCopy(type) });
    return true;
  }

  async setDeprecated(name: string, deprecated: boolean, builtIn: boolean): Promise<boolean> {
    const item = this.items.get(name);
    if (builtIn) {
      this.items.set(name, { ...item, deprecated, builtIn: true, name });
      return true;
    }
    if (item === undefined) return false;
    this.items.set(name, { ...item, deprecated });
    return true;
  }

  async delete(name: string, usageMark: number): Promise<'done' | 'missing' | 'changed'> {
    const item = this.items.get(name);
    // A type nobody ever used has no mark yet, as in the adapter's condition.
    const markHolds = usageMark === 0 ? item?.usageMark === undefined : item?.usageMark === usageMark;
    if (item !== undefined && !item.builtIn && markHolds) {
      this.items.delete(name);
      return 'done';
    }
    return item !== undefined && !item.builtIn ? 'changed' : 'missing';
  }

  /**
   * What the feature store does in a feature's transaction when the feature starts using the
   * custom type: moves its usage mark, so a delete that read the old mark fails. False when
   * there is no custom type of that name (the feature's write would be refused).
   */
  markUsed(name: string, uses = 1): boolean {
    const item = this.items.get(name);
    if (item === undefined || item.builtIn) return false;
    item.usageMark = (item.usageMark ?? 0) + uses;
    return true;
  }
}

function toStored(item: Item): StoredStrategyType {
  if (item.builtIn) return { kind: 'built-in-overlay', name: item.name, deprecated: item.deprecated === true };
  const { builtIn: _builtIn, usageMark, ...type } = storedCopy(item);
  return { kind: 'custom', type: type as unknown as StrategyType, usageMark: usageMark ?? 0 };
}
