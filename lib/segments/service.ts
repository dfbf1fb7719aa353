import { Conflict, NotFound, ValidationFailed } from '../errors.js';
import { segmentIdsOf, strategiesWhere, type Constraint, type Feature, type StrategyUsage } from '../features/model.js';
import type { EveryFeature } from '../features/search-service.js';
import type { FeatureStore } from '../features/store.js';
import { RESOURCE_LIMITS } from '../limits.js';
import type { Segment } from './model.js';
import type { EditableSegmentStore } from './store.js';

export interface SegmentInput {
  name: string;
  description?: string | null | undefined;
  project?: string | null | undefined;
  constraints: Constraint[];
}

export interface SegmentWithUsage extends Segment {
  /** Features (archived ones included) whose strategies use the segment. */
  usedInFeatures: number;
  usedInProjects: number;
}

/** Answers whether a project exists. */
export interface ProjectLookup {
  projectExists(id: string): Promise<boolean>;
}

/** How often a write is retried when the segment was renamed while it was computed. */
const ATTEMPTS = 3;

export class SegmentService {
  constructor(
    private readonly store: EditableSegmentStore,
    private readonly projects: ProjectLookup,
    private readonly features: Pick<FeatureStore, 'listAll'>,
    /** The container's SDK snapshot: the admin UI's usage lists filter it instead of reading every feature. */
    private readonly everyFeature: EveryFeature,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** Every segment; the SDK payload reads this too. */
  list(): Promise<Segment[]> {
    return this.store.list();
  }

  /**
   * Every segment with how many features and projects use it, counted on the admin read model
   * (as the strategies using one are): the admin UI asks for this list on most pages, and
   * reading every feature from the table for it cost a Query page per megabyte of features each time.
   */
  async listWithUsage(): Promise<SegmentWithUsage[]> {
    const [segments, features] = await Promise.all([this.store.list(), this.everyFeature()]);
    return segments.map((segment) => {
      const users = features.filter((feature) => segmentIdsOf(feature).has(segment.id));
      return { ...segment, usedInFeatures: users.length, usedInProjects: new Set(users.map((f) => f.project)).size };
    });
  }

  async get(id: number): Promise<Segment> {
    const segment = await this.store.get(id);
    if (!segment) throw segmentNotFound(id);
    return segment;
  }

  /** The strategies of features not archived that use the segment; NotFound for an unknown segment, as Unleash answers. */
  async strategiesUsing(id: number): Promise<StrategyUsage[]> {
    const [, features] = await Promise.all([this.get(id), this.everyFeature()]);
    return strategiesWhere(features, (strategy) => strategy.segments.includes(id));
  }

  /** The segments a strategy uses, archived features' included; none for an unknown strategy, as Unleash answers. */
  async usedBy(strategyId: string): Promise<Segment[]> {
    const strategy = (await this.everyFeature())
      .flatMap((feature) => Object.values(feature.environments).flatMap((state) => state.strategies))
      .find((candidate) => candidate.id === strategyId);
    if (!strategy || strategy.segments.length === 0) return [];
    const segments = await this.store.list();
    return segments.filter((segment) => strategy.segments.includes(segment.id));
  }

  /** POST /api/admin/segments/validate: 409 when a segment has the name, as creating it would answer. */
  async checkNewName(name: string): Promise<void> {
    if (await this.store.nameTaken(name)) throw nameTaken();
  }

  async create(input: SegmentInput, createdBy: string | null): Promise<Segment> {
    await this.check(input);
    const segment: Segment = {
      id: await this.store.nextId(),
      name: input.name,
      description: input.description ?? null,
      project: input.project ?? null,
      constraints: input.constraints,
      createdAt: this.now().toISOString(),
      createdBy,
    };
    if ((await this.store.insert(segment)) === 'name-taken') throw nameTaken();
    return segment;
  }

  async update(id: number, input: SegmentInput): Promise<Segment> {
    await this.check(input);
    return this.retrying(async () => {
      const before = await this.get(id);
      if (input.project) await this.checkUsedOnlyIn(before.id, input.project);
      const after: Segment = {
        ...before, name: input.name, description: input.description ?? null, project: input.project ?? null, constraints: input.constraints,
      };
      const outcome = await this.store.replace(before, after);
      if (outcome === 'name-taken') throw nameTaken();
      if (outcome === 'missing') throw segmentNotFound(id);
      return outcome === 'done' ? after : undefined;
    });
  }

  async delete(id: number): Promise<void> {
    await this.retrying(async () => {
      const outcome = await this.store.delete(await this.get(id));
      if (outcome === 'missing') throw segmentNotFound(id);
      if (outcome === 'in-use') throw new Conflict('Segment is in use by one or more strategies');
      return outcome === 'done' ? true : undefined;
    });
  }

  private async check(input: SegmentInput): Promise<void> {
    const values = input.constraints.reduce((sum, constraint) => sum + constraint.values.length, 0);
    if (values > RESOURCE_LIMITS.segmentValues) {
      throw new ValidationFailed(
        `constraints: a segment may hold at most ${RESOURCE_LIMITS.segmentValues} values in all its constraints (got ${values})`,
      );
    }
    if (input.project && !(await this.projects.projectExists(input.project))) {
      throw new ValidationFailed(`project: no project with id ${input.project} exists`);
    }
  }

  /** A segment scoped to a project may only be used by that project's strategies (§6.6). */
  private async checkUsedOnlyIn(id: number, project: string): Promise<void> {
    const elsewhere = (await this.features.listAll()).filter(
      (feature: Feature) => feature.project !== project && segmentIdsOf(feature).has(id),
    );
    if (elsewhere.length > 0) {
      throw new ValidationFailed(
        `project: the segment is used by strategies in other projects (${[...new Set(elsewhere.map((f) => f.project))].join(', ')})`,
      );
    }
  }

  /** Runs a read-then-write step again when it answers undefined (a concurrent rename). */
  private async retrying<T>(step: () => Promise<T | undefined>): Promise<T> {
    for (let attempt = 1; attempt <= ATTEMPTS; attempt += 1) {
      const result = await step();
      if (result !== undefined) return result;
    }
    throw new Conflict('The segment kept changing while this change was applied; try again');
  }
}

const segmentNotFound = (id: number): NotFound => new NotFound(`Could not find segment with id ${id}`);
const nameTaken = (): Conflict => new Conflict('Segment name already exists');
