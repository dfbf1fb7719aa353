import { Conflict } from '../errors.js';
import { environmentNotFound } from './model.js';
import { compareEnvironments, type Environment } from './model.js';
import type { EnvironmentStore } from './store.js';

export interface NewEnvironment {
  name: string;
  type: string;
  enabled?: boolean | undefined;
  sortOrder?: number | undefined;
}

/** Where an environment created without a sort order goes: last, as in Unleash. */
export const DEFAULT_ENVIRONMENT_SORT_ORDER = 9999;

/** The environments of the instance; projects choose among them. */
export class EnvironmentService {
  constructor(
    private readonly store: EnvironmentStore,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async list(): Promise<Environment[]> {
    return (await this.store.list()).sort(compareEnvironments);
  }

  async get(name: string): Promise<Environment> {
    const environment = await this.store.get(name);
    if (!environment) throw environmentNotFound(name);
    return environment;
  }

  async create(input: NewEnvironment): Promise<Environment> {
    const environment: Environment = {
      name: input.name,
      type: input.type,
      enabled: input.enabled ?? true,
      protected: false,
      sortOrder: input.sortOrder ?? DEFAULT_ENVIRONMENT_SORT_ORDER,
      createdAt: this.now().toISOString(),
    };
    if (!(await this.store.insert(environment))) {
      throw new Conflict(`An environment with the name ${input.name} already exists`);
    }
    return environment;
  }
}
