import type { ContextField } from './model.js';

/** The context-field store port; `dynamo-store.ts` beside it implements it on DynamoDB. */
export interface ContextFieldStore {
  list(): Promise<ContextField[]>;
  get(name: string): Promise<ContextField | undefined>;
  /** Answers false when the name is taken. */
  insert(field: ContextField): Promise<boolean>;
  /** Replaces everything but `createdAt`; answers false when the field does not exist. */
  replace(field: Omit<ContextField, 'createdAt'>): Promise<boolean>;
  /** Answers false when the field does not exist. */
  delete(name: string): Promise<boolean>;
}
