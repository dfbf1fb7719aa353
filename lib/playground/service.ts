import type { EveryFeature } from '../features/search-service.js';
import type { Context } from 'unleash-client';
import type { FeatureInterface } from 'unleash-client/lib/feature.js';
import { selectFeatures, segmentList, toClientFeature, toClientStrategy, usedSegmentIds } from '../client/payload.js';
import type { ClientQuery } from '../client/query.js';
import type { ClientSegment, ClientStrategy } from '../client/schemas.js';
import { environmentOf, type Feature, type FeatureStrategy } from '../features/model.js';
import { FlagEvaluator, type EvaluatedPayload } from '../frontend/evaluator.js';
import type { Segment } from '../segments/model.js';
import type { SegmentStore } from '../segments/store.js';
import { ValidationFailed } from '../errors.js';
import { contextChoices, engineContext, playgroundContexts, type FlatContext } from './context.js';
import type { PlaygroundFeature, PlaygroundStrategy } from './schemas.js';

/**
 * Most flag evaluations one request may ask for (environments × flags × contexts), Unleash's
 * advanced playground limit; a request's contexts on their own are held to it too.
 */
export const PLAYGROUND_LIMIT = 15_000;

export interface PlaygroundQuery {
  projects?: '*' | string[] | undefined;
  environments: string[];
  context: Record<string, unknown>;
  /** The advanced playground: comma-separated values are alternatives, each combination one context. */
  split: boolean;
}

export interface EnvironmentFeature extends PlaygroundFeature {
  environment: string;
  context: FlatContext;
}

/**
 * The admin playground: every flag of the requested projects evaluated for a context in the
 * requested environments, with the Frontend API's engine (FlagEvaluator, unleash-client) on the
 * SDK payload a backend SDK would get for that environment and those projects, so its verdicts
 * are the SDKs'. The engine answers for a whole flag; to explain it, each strategy, constraint
 * and segment is checked again alone with the engine's own strategy implementations.
 */
export class PlaygroundService {
  constructor(
    /** Some projects' flags, as the feature search reads them: perhaps other projects' too. */
    private readonly projectsFeatures: (projectIds: readonly string[]) => Promise<readonly Feature[]>,
    private readonly segments: Pick<SegmentStore, 'list'>,
    /** Active flags of every project, from the projects' counts (no flag read). */
    private readonly activeFeatureCount: () => Promise<number>,
    /** Every flag, from the container's SDK snapshot (ADR 20) rather than a read of every flag per request. */
    private readonly everyFeature: EveryFeature,
  ) {}

  async evaluate(query: PlaygroundQuery): Promise<{ features: EnvironmentFeature[]; removed: string[] }> {
    // Every project's flags are counted before they are read: past the limit, refused at once
    // instead of reading them all (tens of thousands take longer than the function has).
    const given = contextChoices(query.context, query.split);
    // The contexts are counted from the request alone, before any is built or a flag read: with
    // no flag to evaluate the evaluations are 0, yet building the contexts would cost memory.
    contextsWithinLimit(given.count);
    const projects = query.projects === undefined || query.projects === '*' ? undefined : [...new Set(query.projects)];
    if (!projects) withinLimit(given.count, (await this.activeFeatureCount()) * query.environments.length);
    const [features, segments] = await Promise.all([this.read(projects), this.segments.list()]);
    const segmentsById = new Map(segments.map((segment) => [segment.id, segment]));
    const served = selectFeatures(features, { environment: query.environments[0] as string, ...(projects ? { projects } : {}), inlineSegmentConstraints: false });
    withinLimit(given.count, served.length * query.environments.length);
    const contexts = playgroundContexts(given);
    const evaluated: EnvironmentFeature[] = [];
    for (const environment of query.environments) {
      const scope: ClientQuery = { environment, inlineSegmentConstraints: false };
      const used = segmentList(usedSegmentIds(served, scope), segmentsById);
      // The engine's types are its own; the payload is the SDK wire form it reads (as the Frontend API's JSON).
      const payload = {
        features: served.map((feature) => toClientFeature(feature, scope, segmentsById)),
        segments: used,
      } as unknown as EvaluatedPayload;
      const wireSegments = new Map(used.map((segment) => [segment.id, segment]));
      const evaluator = new FlagEvaluator(payload);
      // What does not depend on the context is made once per environment, not once per context.
      const strategiesOf = served.map((feature) => explainedStrategies(feature, environment, segmentsById));
      for (const context of contexts) {
        const engine = engineContext(context, environment);
        served.forEach((feature, index) => {
          evaluated.push({
            ...explain(evaluator, feature, payload.features[index] as FeatureInterface, strategiesOf[index] as ExplainedStrategy[], { context: engine, segmentsById, wireSegments }),
            environment, context,
          });
        });
      }
    }
    return { features: evaluated, removed: given.removed };
  }

  /**
   * A few requested projects' features as the feature search reads them (the read model on a
   * warm container, their own partitions on a cold one when they are small); more, or every
   * project, from the container's snapshot. `selectFeatures` then filters by project: a request
   * naming hundreds of projects would otherwise send as many reads at once.
   */
  private read(projects: string[] | undefined): Promise<readonly Feature[]> {
    if (!projects || projects.length > PROJECTS_READ_ONE_BY_ONE) return this.everyFeature();
    return this.projectsFeatures(projects);
  }
}

/** Up to this many named projects are read one by one (as the feature search does); more, and the snapshot answers. */
const PROJECTS_READ_ONE_BY_ONE = 10;

function contextsWithinLimit(contexts: number): void {
  if (contexts <= PLAYGROUND_LIMIT) return;
  const count = Number.isSafeInteger(contexts) ? String(contexts) : `more than ${Number.MAX_SAFE_INTEGER}`;
  throw new ValidationFailed(`context: its comma-separated values make ${count} contexts, more than the ${PLAYGROUND_LIMIT} allowed; choose fewer values`);
}

function withinLimit(contexts: number, per: number): void {
  if (contexts * per <= PLAYGROUND_LIMIT) return;
  throw new ValidationFailed(
    `context: evaluating ${contexts * per} flag, environment and context combinations is more than the ${PLAYGROUND_LIMIT} allowed; ` +
      `choose fewer environments, projects or comma-separated context values (${contexts} contexts)`,
  );
}

interface Evaluation {
  context: Context;
  segmentsById: ReadonlyMap<number, Segment>;
  /** The segments as the engine holds them (SDK wire form), by id. */
  wireSegments: ReadonlyMap<number, ClientSegment>;
}

/** One strategy of a flag in an environment as every context's evaluation shares it. */
interface ExplainedStrategy {
  strategy: FeatureStrategy;
  wire: ClientStrategy;
  /** The wire form as the engine checks it alone. */
  checked: Parameters<FlagEvaluator['strategyVerdict']>[0];
  edit: string;
}

/** A flag's strategies in the environment (disabled ones too), in order, each in its SDK wire form. */
function explainedStrategies(feature: Feature, environment: string, segmentsById: ReadonlyMap<number, Segment>): ExplainedStrategy[] {
  return [...environmentOf(feature, environment).strategies]
    .sort((a, b) => a.sortOrder - b.sortOrder)
    .map((strategy) => {
      const wire = toClientStrategy(strategy, false, segmentsById);
      return {
        strategy, wire,
        checked: { ...wire, segments: wire.segments ?? [] } as Parameters<FlagEvaluator['strategyVerdict']>[0],
        edit: `/projects/${feature.project}/features/${feature.name}/strategies/edit?environmentId=${environment}&strategyId=${strategy.id}`,
      };
    });
}

/** One flag's answer, and each of its strategies in the environment (disabled ones too, marked) explained. */
function explain(evaluator: FlagEvaluator, feature: Feature, served: FeatureInterface, explained: ExplainedStrategy[], on: Evaluation): PlaygroundFeature {
  const { context, segmentsById, wireSegments } = on;
  const verdict = evaluator.verdict(feature.name, context);
  const strategies = explained
    .map(({ strategy, wire, checked: input, edit }): PlaygroundStrategy => {
      const checked = evaluator.strategyVerdict(input, context);
      return {
        name: strategy.name,
        id: strategy.id,
        ...(strategy.title ? { title: strategy.title } : {}),
        disabled: strategy.disabled ?? false,
        parameters: wire.parameters,
        constraints: wire.constraints.map((constraint, index) => ({ ...constraint, result: checked?.constraints[index] ?? false })),
        segments: strategy.segments.map((id, index) => {
          const results = checked?.segments[index];
          return {
            id, name: segmentsById.get(id)?.name ?? `segment ${id}`,
            result: results !== undefined && results.every(Boolean),
            constraints: (wireSegments.get(id)?.constraints ?? []).map((constraint, at) => ({ ...constraint, result: results?.[at] ?? false })),
          };
        }),
        result: checked
          ? {
            enabled: checked.enabled, evaluationStatus: 'complete',
            ...(checked.variant ? { variant: { name: checked.variant.name, enabled: checked.variant.enabled, ...(checked.variant.payload ? { payload: checked.variant.payload } : {}) } } : {}),
            ...(wire.variants.length > 0 ? { variants: wire.variants } : {}),
          }
          : { enabled: 'unknown', evaluationStatus: 'incomplete' },
        links: { edit },
      };
    });
  const active = strategies.filter((strategy) => !strategy.disabled);
  const result = active.length === 0 ? served.enabled
    : active.some((strategy) => strategy.result.enabled === true) ? true
      : active.some((strategy) => strategy.result.enabled === 'unknown') ? 'unknown' : false;
  return {
    name: feature.name,
    projectId: feature.project,
    isEnabled: verdict.enabled,
    isEnabledInCurrentEnvironment: served.enabled,
    hasUnsatisfiedDependency: verdict.hasUnsatisfiedDependency,
    strategies: { result, data: strategies },
    variant: verdict.enabled ? verdict.variant : { name: 'disabled', enabled: false, feature_enabled: false },
    variants: (served.variants ?? []) as PlaygroundFeature['variants'],
  };
}
