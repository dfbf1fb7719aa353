import { randomUUID } from 'node:crypto';
import { NotFound, ValidationFailed } from '../errors.js';
import { RESOURCE_LIMITS } from '../limits.js';
import type { DefaultStrategy, Project } from '../projects/model.js';
import { FeatureAggregates, replaced } from './aggregate.js';
import { environmentOf, type Constraint, type Feature, type FeatureEnvironment, type FeatureStrategy, type StrategyVariant } from './model.js';
import type { FeatureCatalog } from './ports.js';
import {
  bySortOrder,
  keepEnabledInvariant,
  nextSortOrder,
  strategyIn,
  turnOff,
  turnOn,
  withEnvironment,
} from './rules/environments.js';
import { normaliseVariants } from './rules/variants.js';

export interface StrategyInput {
  name: string;
  title?: string | null | undefined;
  disabled?: boolean | undefined;
  sortOrder?: number | undefined;
  constraints: Constraint[];
  parameters: Record<string, string>;
  variants: StrategyVariant[];
  segments: number[];
}

/** A feature in one environment of its project: the address of every call here. */
export interface FeatureEnvironmentRef {
  projectId: string;
  featureName: string;
  environment: string;
}

/** Strategies of a feature in one environment, and switching the environment on and off. */
export class FeatureStrategyService {
  constructor(
    private readonly aggregates: FeatureAggregates,
    private readonly catalog: FeatureCatalog,
  ) {}

  /**
   * The feature in the environment, its strategies in order. An environment the project lacks is
   * a miss here (404, Unleash's words), not the bad request a strategy change on it is.
   */
  async environment(ref: FeatureEnvironmentRef): Promise<FeatureEnvironment> {
    const [feature, project] = await Promise.all([
      this.aggregates.activeFeature(ref.projectId, ref.featureName), this.catalog.project(ref.projectId),
    ]);
    if (!project.environments.includes(ref.environment)) throw new NotFound(`Could not find ${ref.featureName} in ${ref.environment}`);
    const state = environmentOf(feature, ref.environment);
    return { ...state, strategies: [...state.strategies].sort(bySortOrder) };
  }

  async list(ref: FeatureEnvironmentRef): Promise<FeatureStrategy[]> {
    const { feature } = await this.load(ref);
    return [...environmentOf(feature, ref.environment).strategies].sort(bySortOrder);
  }

  async get(ref: FeatureEnvironmentRef, id: string): Promise<FeatureStrategy> {
    const { feature } = await this.load(ref);
    return strategyIn(environmentOf(feature, ref.environment), id);
  }

  /** Adding a strategy does not switch the environment on, as in Unleash. */
  async add(ref: FeatureEnvironmentRef, input: StrategyInput, actor: string): Promise<FeatureStrategy> {
    const id = randomUUID();
    return this.change(ref, input, actor, (feature) => {
      let added: FeatureStrategy | undefined;
      const after = withEnvironment(feature, ref.environment, (state) => {
        added = toStrategy(id, input, input.sortOrder ?? nextSortOrder(state));
        return { ...state, strategies: [...state.strategies, added] };
      });
      return { after, result: added as FeatureStrategy };
    });
  }

  /** Replaces a strategy; if no active strategy remains, the environment goes off. */
  async update(ref: FeatureEnvironmentRef, id: string, input: StrategyInput, actor: string): Promise<FeatureStrategy> {
    return this.change(ref, input, actor, (feature) => {
      let updated: FeatureStrategy | undefined;
      const after = withEnvironment(feature, ref.environment, (state) => {
        const current = strategyIn(state, id);
        updated = toStrategy(id, input, input.sortOrder ?? current.sortOrder);
        const strategies = state.strategies.map((s) => (s.id === id ? (updated as FeatureStrategy) : s));
        return keepEnabledInvariant({ ...state, strategies });
      });
      return { after, result: updated as FeatureStrategy };
    });
  }

  async remove(ref: FeatureEnvironmentRef, id: string, actor: string): Promise<void> {
    await this.change(ref, undefined, actor, (feature) => ({
      after: withEnvironment(feature, ref.environment, (state) => {
        strategyIn(state, id);
        return keepEnabledInvariant({ ...state, strategies: state.strategies.filter((s) => s.id !== id) });
      }),
      result: undefined,
    }));
  }

  /** The admin UI's drag and drop: new sort orders by strategy id; every id must be a strategy of the environment. */
  async setSortOrder(ref: FeatureEnvironmentRef, orders: ReadonlyArray<{ id: string; sortOrder: number }>, actor: string): Promise<void> {
    await this.change(ref, undefined, actor, (feature) => ({
      after: withEnvironment(feature, ref.environment, (state) => {
        for (const { id } of orders) strategyIn(state, id);
        const sortOrders = new Map(orders.map(({ id, sortOrder }) => [id, sortOrder]));
        return { ...state, strategies: state.strategies.map((s) => ({ ...s, sortOrder: sortOrders.get(s.id) ?? s.sortOrder })) };
      }),
      result: undefined,
    }));
  }

  /** E7: on, adding the project's default strategy (or a 100% rollout) when none is active. */
  async turnOn(ref: FeatureEnvironmentRef, actor: string, activateDisabledStrategies = false): Promise<Feature> {
    const id = randomUUID();
    return this.switch(ref, actor, (feature, project) =>
      turnOn(feature, ref.environment, defaultFor(project, ref.environment), id, activateDisabledStrategies));
  }

  async turnOff(ref: FeatureEnvironmentRef, actor: string): Promise<Feature> {
    return this.switch(ref, actor, (feature) => turnOff(feature, ref.environment));
  }

  private async switch(ref: FeatureEnvironmentRef, actor: string, toggle: (feature: Feature, project: Project) => Feature): Promise<Feature> {
    return this.aggregates.apply(actor, async (read) => {
      const before = await this.aggregates.activeFeature(ref.projectId, ref.featureName, read);
      const project = await this.catalog.project(ref.projectId);
      if (!project.environments.includes(ref.environment)) {
        throw new NotFound(`Could not find environment ${ref.environment} for feature: ${ref.featureName}`);
      }
      const write = replaced(before, toggle(before, project));
      return { commit: { writes: [write] }, result: write.after };
    });
  }

  private async change<T>(
    ref: FeatureEnvironmentRef,
    input: StrategyInput | undefined,
    actor: string,
    mutate: (feature: Feature) => { after: Feature; result: T },
  ): Promise<T> {
    return this.aggregates.apply(actor, async (read) => {
      const before = await this.aggregates.activeFeature(ref.projectId, ref.featureName, read);
      const project = await this.catalog.project(ref.projectId);
      checkEnvironmentInProject(project, ref.environment);
      if (input) await this.checkInput(input, before);
      const { after, result } = mutate(before);
      return { commit: { writes: [replaced(before, after)] }, result };
    });
  }

  private async load(ref: FeatureEnvironmentRef): Promise<{ feature: Feature; project: Project }> {
    const feature = await this.aggregates.activeFeature(ref.projectId, ref.featureName);
    const project = await this.catalog.project(ref.projectId);
    checkEnvironmentInProject(project, ref.environment);
    return { feature, project };
  }

  /** The checks that need the catalogue: type, segments, context fields and legal values. */
  private async checkInput(input: StrategyInput, feature: Feature): Promise<void> {
    if (!(await this.catalog.strategyTypeExists(input.name))) {
      throw new ValidationFailed(`name: Could not find strategy type with name ${input.name}`);
    }
    if (input.segments.length > RESOURCE_LIMITS.strategySegments) {
      throw new ValidationFailed(`segments: a strategy can use at most ${RESOURCE_LIMITS.strategySegments} segments`);
    }
    for (const [index, id] of input.segments.entries()) {
      const segment = await this.catalog.segment(id);
      if (!segment) throw new ValidationFailed(`segments.${index}: the segment with id ${id} does not exist`);
      if (segment.project !== null && segment.project !== feature.project) {
        throw new ValidationFailed(`segments.${index}: the segment ${segment.name} belongs to the project ${segment.project}`);
      }
    }
    await this.checkConstraints(input.constraints);
  }

  private async checkConstraints(constraints: Constraint[]): Promise<void> {
    for (const [index, constraint] of constraints.entries()) await this.checkConstraint(constraint, `constraints.${index}.`);
  }

  /**
   * The catalogue's part of a constraint's check (its shape is the schema's): the context field
   * exists and the values are among its legal ones. `at` prefixes the field names in messages.
   */
  async checkConstraint(constraint: Constraint, at = ''): Promise<void> {
    const field = await this.catalog.contextField(constraint.contextName);
    if (!field) throw new ValidationFailed(`${at}contextName: Could not find Context field with name ${constraint.contextName}`);
    const legal = new Set(field.legalValues.map((legalValue) => legalValue.value));
    if (legal.size === 0) return;
    const given = constraint.value !== undefined ? [...constraint.values, constraint.value] : constraint.values;
    const illegal = given.filter((value) => !legal.has(value));
    if (illegal.length > 0) {
      throw new ValidationFailed(`${at}values: ${illegal.join(', ')} not among the legal values of ${field.name}`);
    }
  }
}

function checkEnvironmentInProject(project: Project, environment: string): void {
  if (!project.environments.includes(environment)) {
    throw new ValidationFailed(`environment: You have not added the environment ${environment} to the project ${project.id}`);
  }
}

function defaultFor(project: Project, environment: string): DefaultStrategy | undefined {
  return project.defaultStrategies[environment];
}

function toStrategy(id: string, input: StrategyInput, sortOrder: number): FeatureStrategy {
  const parameters = { ...input.parameters };
  if (parameters.stickiness === '') parameters.stickiness = 'default';
  return {
    id,
    name: input.name,
    title: input.title ?? null,
    disabled: input.disabled ?? false,
    sortOrder,
    constraints: input.constraints,
    parameters,
    variants: normaliseVariants(input.variants, 'variants'),
    segments: [...new Set(input.segments)],
  };
}
