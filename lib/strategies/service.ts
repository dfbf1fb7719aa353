import { Conflict, NotFound, ValidationFailed } from '../errors.js';
import {
  BUILT_IN_STRATEGY_TYPES,
  CUSTOM_SORT_ORDER,
  builtInStrategyType,
  compareStrategyTypes,
  type StrategyParameterType,
  type StrategyType,
} from './model.js';
import type { StrategyPorts, StrategyTypeUser } from './ports.js';
import type { StoredStrategyType, StrategyTypeStore } from './store.js';

/** Rounds of check-then-delete while features keep starting to use the type. */
const DELETE_ATTEMPTS = 3;

export interface StrategyTypeDetails {
  name: string;
  title?: string | null | undefined;
  description?: string | null | undefined;
  parameters: Array<{ name: string; type: StrategyParameterType; description?: string | undefined; required?: boolean | undefined }>;
}

export class StrategyTypeService {
  constructor(
    private readonly store: StrategyTypeStore,
    private readonly features: StrategyPorts,
  ) {}

  async list(): Promise<StrategyType[]> {
    const stored = await this.store.list();
    const overlays = new Map<string, boolean>();
    const custom: StrategyType[] = [];
    for (const item of stored) {
      if (item.kind === 'custom') custom.push(item.type);
      else overlays.set(item.name, item.deprecated);
    }
    const builtIns = BUILT_IN_STRATEGY_TYPES.map((type) => ({ ...type, deprecated: overlays.get(type.name) ?? type.deprecated }));
    // A custom type made before its name became built-in is shadowed, as `get` already does:
    // SDKs evaluate that name as the built-in anyway.
    const unshadowed = custom.filter((type) => !builtInStrategyType(type.name));
    return [...builtIns, ...unshadowed].sort(compareStrategyTypes);
  }

  async get(name: string): Promise<StrategyType> {
    const builtIn = builtInStrategyType(name);
    const stored = await this.store.get(name);
    const type = resolve(builtIn, stored);
    if (!type) throw notFound(name);
    return type;
  }

  /** `actor`: who the change's event names (every change writes one, as Unleash records it). */
  async create(details: StrategyTypeDetails, actor = 'system'): Promise<StrategyType> {
    const type = toCustomType(details, false);
    if (builtInStrategyType(type.name) || !(await this.store.insert(type, actor))) {
      throw new Conflict(`Strategy with name ${type.name} already exist!`);
    }
    return type;
  }

  async update(name: string, details: Omit<StrategyTypeDetails, 'name'> & { name?: string | undefined }, actor = 'system'): Promise<StrategyType> {
    if (details.name !== undefined && details.name !== name) {
      throw new ValidationFailed(`name: must match the strategy type in the path (${name})`);
    }
    if (builtInStrategyType(name)) {
      throw new ValidationFailed(`name: ${name} is a built-in strategy type and cannot be edited`);
    }
    const current = await this.get(name);
    const type = toCustomType({ ...details, name }, current.deprecated);
    if (!(await this.store.replace(type, actor))) throw notFound(name);
    return type;
  }

  /**
   * Deletes a custom type that no feature uses. Unleash deletes without looking; here a type in
   * use, by an archived feature too, is refused with 409: a strategy of a missing type is off for
   * every SDK and can no longer be edited. The usage mark read first makes the check hold against
   * concurrent writers (see the feature store): a feature that starts using the type after the
   * read fails the delete, which then looks again.
   */
  async delete(name: string, actor = 'system'): Promise<void> {
    if (builtInStrategyType(name)) throw new ValidationFailed(`name: ${name} is a built-in strategy type and cannot be deleted`);
    for (let attempt = 1; attempt <= DELETE_ATTEMPTS; attempt += 1) {
      const stored = await this.store.get(name);
      if (stored?.kind !== 'custom') throw notFound(name);
      const using = await this.features.featuresUsing(name);
      if (using.length > 0) throw inUse(name, using);
      const outcome = await this.store.delete(name, stored.usageMark, actor);
      if (outcome === 'done') return;
      if (outcome === 'missing') throw notFound(name);
    }
    throw new Conflict(`The strategy type ${name} kept being put to use while it was being deleted; try again`);
  }

  /** Idempotent; built-in types can be deprecated too, as in Unleash. */
  async setDeprecated(name: string, deprecated: boolean, actor = 'system'): Promise<void> {
    const builtIn = builtInStrategyType(name) !== undefined;
    if (!(await this.store.setDeprecated(name, deprecated, builtIn, actor))) throw notFound(name);
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

/** Names a few of the features, so the caller knows where to look. */
function inUse(name: string, features: StrategyTypeUser[]): Conflict {
  const shown = features.slice(0, 5).map((feature) => `${feature.name} (project ${feature.project}${feature.archived ? ', archived' : ''})`);
  const more = features.length > shown.length ? ` and ${features.length - shown.length} more` : '';
  return new Conflict(`The strategy type ${name} is in use by ${shown.join(', ')}${more}; remove those strategies first, or deprecate the type`);
}

const notFound = (name: string) => new NotFound(`Could not find strategy with name ${name}`);
