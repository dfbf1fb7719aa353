import { Conflict, NotFound, ValidationFailed } from '../errors.js';
import { strategiesWhere, type StrategyUsage } from '../features/model.js';
import type { EveryFeature } from '../features/search-service.js';
import type { ContextField, LegalValue } from './model.js';
import type { ContextFieldStore } from './store.js';

export interface ContextFieldInput {
  name: string;
  description?: string | null | undefined;
  legalValues?: LegalValue[] | undefined;
  stickiness?: boolean | undefined;
  sortOrder?: number | undefined;
}

/** Where a field created without a sort order goes: after the built-in ones. */
export const DEFAULT_CONTEXT_FIELD_SORT_ORDER = 10;

/** The context fields constraints may name (a strategy constraint on an unknown field is refused). */
export class ContextFieldService {
  constructor(
    private readonly store: ContextFieldStore,
    /** The container's SDK snapshot: the admin UI's usage list filters it instead of reading every feature. */
    private readonly everyFeature: EveryFeature,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async list(): Promise<ContextField[]> {
    return (await this.store.list()).sort((a, b) => a.sortOrder - b.sortOrder || a.name.localeCompare(b.name));
  }

  /** The field, or NotFound in Unleash's words. */
  async get(name: string): Promise<ContextField> {
    const field = await this.store.get(name);
    if (!field) throw new NotFound(`Could not find Context field with name ${name}`);
    return field;
  }

  /** Strategies whose own constraints test the field (not those of their segments, as in Unleash). */
  async strategiesUsing(name: string): Promise<StrategyUsage[]> {
    return strategiesWhere(await this.everyFeature(), (strategy) => strategy.constraints.some((c) => c.contextName === name));
  }

  find(name: string): Promise<ContextField | undefined> {
    return this.store.get(name);
  }

  async create(input: ContextFieldInput): Promise<ContextField> {
    const field: ContextField = { ...details(input), createdAt: this.now().toISOString() };
    if (!(await this.store.insert(field))) throw new Conflict('A context field with that name already exist');
    return field;
  }

  /** PUT: what the body leaves out is reset to its default; the name in the path wins. */
  async update(name: string, input: Omit<ContextFieldInput, 'name'> & { name?: string | undefined }): Promise<void> {
    if (input.name !== undefined && input.name !== name) {
      throw new ValidationFailed(`name: must match the context field in the path (${name})`);
    }
    if (!(await this.store.replace(details({ ...input, name })))) {
      throw new NotFound(`Could not find Context field with name ${name}`);
    }
  }

  async delete(name: string): Promise<void> {
    if (!(await this.store.delete(name))) throw new NotFound(`Could not find Context field with name ${name}`);
  }
}

function details(input: ContextFieldInput): Omit<ContextField, 'createdAt'> {
  return {
    name: input.name,
    description: input.description ?? null,
    stickiness: input.stickiness ?? false,
    sortOrder: input.sortOrder ?? DEFAULT_CONTEXT_FIELD_SORT_ORDER,
    legalValues: input.legalValues ?? [],
  };
}
