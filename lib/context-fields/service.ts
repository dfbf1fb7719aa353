import { Conflict, NotFound, ValidationFailed } from '../errors.js';
import { strategiesWhere, type StrategyUsage } from '../features/model.js';
import type { EveryFeature } from '../features/search-service.js';
import type { ContextField, ContextFieldUsage, LegalValue } from './model.js';
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

  /** The instance's fields; with `project: 'all'` every project's own fields too, with one project's id that project's. */
  async list(scope: { root: boolean; project?: string | 'all' | undefined } = { root: true }): Promise<ContextField[]> {
    const inScope = (field: ContextField) => (field.project === undefined
      ? scope.root
      : scope.project === 'all' || scope.project === field.project);
    return (await this.store.list()).filter(inScope).sort((a, b) => a.sortOrder - b.sortOrder || a.name.localeCompare(b.name));
  }

  /**
   * Per field name, how many flags (not archived) and projects have a strategy whose own
   * constraints test it, as Unleash counts `usedInFeatures` and `usedInProjects`: the list shows
   * them and the UI offers to delete only a field nobody uses.
   */
  async usage(): Promise<Map<string, ContextFieldUsage>> {
    const features = new Map<string, Set<string>>();
    const projects = new Map<string, Set<string>>();
    for (const feature of await this.everyFeature()) {
      if (feature.archived) continue;
      for (const state of Object.values(feature.environments)) {
        for (const strategy of state.strategies) {
          for (const { contextName } of strategy.constraints) {
            features.set(contextName, (features.get(contextName) ?? new Set()).add(feature.name));
            projects.set(contextName, (projects.get(contextName) ?? new Set()).add(feature.project));
          }
        }
      }
    }
    return new Map([...features].map(([name, flags]) => [name, { usedInFeatures: flags.size, usedInProjects: projects.get(name)?.size ?? 0 }]));
  }

  /** What creating `name` would answer, without creating it: the name check of the UI's create page. */
  async checkNewName(name: string): Promise<void> {
    if (await this.store.get(name)) throw new Conflict('A context field with that name already exist');
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

  /** `project`: the field is that project's own (its existence is the caller's to check). */
  async create(input: ContextFieldInput, project?: string): Promise<ContextField> {
    const field: ContextField = { ...details(input), createdAt: this.now().toISOString(), ...(project === undefined ? {} : { project }) };
    if (!(await this.store.insert(field))) throw new Conflict('A context field with that name already exist');
    return field;
  }

  /** PUT: what the body leaves out is reset to its default; the name in the path wins. */
  async update(name: string, input: Omit<ContextFieldInput, 'name'> & { name?: string | undefined }, project?: string): Promise<void> {
    if (input.name !== undefined && input.name !== name) {
      throw new ValidationFailed(`name: must match the context field in the path (${name})`);
    }
    if (project !== undefined) await this.ofProject(name, project);
    if (!(await this.store.replace(details({ ...input, name })))) {
      throw new NotFound(`Could not find Context field with name ${name}`);
    }
  }

  /** Refused while a strategy of a flag not archived tests the field, as Unleash refuses it (409). */
  async delete(name: string, project?: string): Promise<void> {
    if (project !== undefined) await this.ofProject(name, project);
    if ((await this.strategiesUsing(name)).length > 0) {
      throw new Conflict('This context field is in use by existing flags. To delete it, first remove its usage from all flags.');
    }
    if (!(await this.store.delete(name))) throw new NotFound(`Could not find Context field with name ${name}`);
  }

  /** The field, which must be the project's own: through a project's routes no other field is reached. */
  async ofProject(name: string, project: string): Promise<ContextField> {
    const field = await this.store.get(name);
    if (field?.project !== project) throw new NotFound(`Could not find Context field with name ${name} in project ${project}`);
    return field;
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
