import type { StrategyType } from './model.js';

/**
 * The strategy-type store port; `dynamo-store.ts` beside it implements it on DynamoDB. `actor`:
 * who a change's event names (strategy-created, -updated, -deprecated, -reactivated, -deleted),
 * written in the change's own transaction.
 */
export interface StrategyTypeStore {
  /** Custom types, and the `deprecated` overlays of built-in ones. */
  list(): Promise<StoredStrategyType[]>;
  get(name: string): Promise<StoredStrategyType | undefined>;
  /** Writes a new custom type; answers false when the name is taken. */
  insert(type: StrategyType, actor?: string): Promise<boolean>;
  /** Replaces an existing custom type's details; answers false when it does not exist. */
  replace(type: StrategyType, actor?: string): Promise<boolean>;
  /** Sets `deprecated`; on a built-in type this writes its overlay. Answers false when a custom type is missing. */
  setDeprecated(name: string, deprecated: boolean, builtIn: boolean, actor?: string): Promise<boolean>;
  /**
   * Deletes a custom type if its usage mark is still the one read: 'changed' when a feature
   * started using the type since (the feature store moves the mark), 'missing' when it is gone.
   */
  delete(name: string, usageMark: number, actor?: string): Promise<'done' | 'missing' | 'changed'>;
}

/** A custom type in full, or only the stored state of a built-in one. */
export type StoredStrategyType =
  | { kind: 'custom'; type: StrategyType; usageMark: number }
  | { kind: 'built-in-overlay'; name: string; deprecated: boolean };
