import type { Environment } from './model.js';

/** The environment store port; `dynamo-store.ts` beside it implements it on DynamoDB. */
export interface EnvironmentStore {
  list(): Promise<Environment[]>;
  get(name: string): Promise<Environment | undefined>;
  /** Answers false when the name is taken. */
  insert(environment: Environment): Promise<boolean>;
}
