import { Conflict, NotFound, ValidationFailed } from '../errors.js';
import {
  BUILT_IN_STRATEGY_TYPES,
  CUSTOM_SORT_ORDER,
  builtInStrategyType,
  compareStrategyTypes,
  type StrategyParameterType,
  type StrategyType,
} from './model.js';
import type { StoredStrategyType, StrategyTypeStore } from './store.js';

export interface StrategyTypeDetails {
  name: string;
  title?: string | null | undefined;
  description?: string | null | undefined;
  parameters: Array<{ name: string; type: StrategyParameterType; description?: string | undefined; required?: boolean | undefined }>;
}

export class StrategyTypeService {
  constructor(private readonly store: StrategyTypeStore) {}

  async list(): Promise<StrategyType[]> {
    const stored = await this.store.list();
    const overlays = new Map<string, boolean>();
    const custom: StrategyType[] = [];
    for (const item of stored) {
      if (item.kind === 'custom') custom.push(item.type);
      else overlays.set(item.name, item.deprecated);
    }
    const builtIns = BUILT_IN_STRATEGY_TYPES.map((type) => ({ ...type, deprecated: overlays.get(type.name) ?? type.deprecated }));
    return [...builtIns, ...custom].sort(compareStrategyTypes);
  }

  async get(name: string): Promise<StrategyType> {
    const builtIn = builtInStrategyType(name);
    const stored = await this.store.get(name);
    const type = resolve(builtIn, stored);
    if (!type) throw notFound(name);
    return type;
  }

  async create(details: StrategyTypeDetails): Promise<StrategyType> {
    const type = toCustomType(details, false);
    if (builtInStrategyType(type.name) || !(await this.store.insert(type))) {
      throw new Conflict(`Strategy with name ${type.name} already exist!`);
    }
    return type;
  }

  async update(name: string, details: Omit<StrategyTypeDetails, 'name'> & { name?: string | undefined }): Promise<StrategyType> {
    if (details.name !== undefined && details.name !== name) {
      throw new ValidationFailed(`name: must match the strategy type in the path (${name})`);
    }
    if (builtInStrategyType(name)) {
      throw new ValidationFailed(`name: ${name} is a built-in strategy type and cannot be edited`);
    }
    const current = await this.get(name);
    const type = toCustomType({ ...details, name }, current.deprecated);
    if (!(await this.store.replace(type))) throw notFound(name);
    return type;
  }

  /** Idempotent; built-in types can be deprecated too, as in Unleash. */
  async setDeprecated(name: string, deprecated: boolean): Promise<void> {
    const builtIn = builtInStrategyType(name) !== undefined;
    if (!(await this.store.setDeprecated(name, deprecated, builtIn))) throw notFound(name);
  }
}

function resolve(builtIn: StrategyType | undefined, stored: StoredStrategyType | undefined): StrategyType | undefined {
  if (builtIn) {
    return stored?.kind === 'built-in-overlay' ? { ...builtIn, deprecated: stored.deprecated } : builtIn;
  }
  return stored?.kind === 'custom' ? stored.type : undefined;
}

function toCustomType(details: StrategyTypeDetails, deprecated: boolean): StrategyType {
  return {
    name: details.name,
    title: details.title ?? null,
    displayName: null,
    description: details.description ?? null,
    editable: true,
    deprecated,
    parameters: details.parameters.map((parameter) => ({
      name: parameter.name,
      type: parameter.type,
      description: parameter.description ?? '',
      required: parameter.required ?? false,
    })),
    sortOrder: CUSTOM_SORT_ORDER,
  };
}

const notFound = (name: string) => new NotFound(`Could not find strategy with name ${name}`);
