import { NotFound } from '../errors.js';
import { environmentOf, type Feature } from '../features/model.js';
import type { FeatureStore } from '../features/store.js';
import type { TransferCatalog } from './ports.js';

export interface ExportSelection {
  environment: string;
  features?: string[] | undefined;
  tag?: string | undefined;
  project?: string | undefined;
}

/** Stickiness values that name no context field. */
const BUILT_IN_STICKINESS = new Set(['default', 'random', '']);

/**
 * E3. Selects features as Unleash does (tag value, then names, then project, then all active),
 * and exports them with the strategies of one environment and the context fields, segments,
 * tag types and dependencies they use.
 */
export class ExportService {
  constructor(
    private readonly features: Pick<FeatureStore, 'listAll'>,
    private readonly catalog: TransferCatalog,
  ) {}

  async export(selection: ExportSelection) {
    const environments = await this.catalog.environments();
    if (!environments.some((environment) => environment.name === selection.environment)) {
      throw new NotFound(`Could not find environment ${selection.environment}`);
    }
    const selected = select(await this.features.listAll(), selection);
    const env = selection.environment;
    const strategies = selected.flatMap((feature) =>
      [...environmentOf(feature, env).strategies]
        .sort((a, b) => a.sortOrder - b.sortOrder)
        .map((strategy) => ({ ...strategy, featureName: feature.name })),
    );
    const usedFields = contextFieldsUsed(selected, env);
    const usedSegments = new Set(strategies.flatMap((strategy) => strategy.segments));
    const usedTagTypes = new Set(selected.flatMap((feature) => feature.tags.map((tag) => tag.type)));
    const [fields, segments, tagTypes] = await Promise.all([
      this.catalog.contextFields(), this.catalog.segments(), this.catalog.tagTypes(),
    ]);
    return {
      features: selected.map((f) => ({
        name: f.name, description: f.description, type: f.type, project: f.project,
        stale: f.stale, impressionData: f.impressionData, archived: f.archived,
      })),
      featureStrategies: strategies.map((s) => ({
        name: s.name, id: s.id, featureName: s.featureName, title: s.title, parameters: s.parameters,
        constraints: s.constraints, variants: s.variants, sortOrder: s.sortOrder, disabled: s.disabled, segments: s.segments,
      })),
      featureEnvironments: selected.map((f) => ({
        enabled: environmentOf(f, env).enabled, featureName: f.name, environment: env,
        variants: environmentOf(f, env).variants, name: f.name,
      })),
      contextFields: fields
        .filter((field) => usedFields.has(field.name))
        .map(({ name, description, stickiness, sortOrder, legalValues }) => ({ name, description, stickiness, sortOrder, legalValues })),
      featureTags: selected.flatMap((f) => f.tags.map((tag) => ({ featureName: f.name, tagType: tag.type, tagValue: tag.value }))),
      segments: segments.filter((segment) => usedSegments.has(segment.id)).map(({ id, name }) => ({ id, name })),
      tagTypes: tagTypes.filter((type) => usedTagTypes.has(type.name)),
      dependencies: selected
        .filter((f) => f.dependencies.length > 0)
        .map((f) => ({ feature: f.name, dependencies: f.dependencies })),
    };
  }
}

function select(all: Feature[], selection: ExportSelection): Feature[] {
  const byName = (a: Feature, b: Feature) => a.name.localeCompare(b.name);
  if (selection.tag) return all.filter((f) => f.tags.some((tag) => tag.value === selection.tag)).sort(byName);
  if (selection.features && selection.features.length > 0) {
    const names = new Set(selection.features);
    return all.filter((f) => names.has(f.name)).sort(byName);
  }
  if (selection.project) return all.filter((f) => f.project === selection.project && !f.archived).sort(byName);
  return all.filter((f) => !f.archived).sort(byName);
}

/** Context fields named by constraints, strategy stickiness, variant stickiness and overrides. */
function contextFieldsUsed(features: Feature[], environment: string): Set<string> {
  const used = new Set<string>();
  for (const feature of features) {
    const state = environmentOf(feature, environment);
    for (const strategy of state.strategies) {
      strategy.constraints.forEach((c) => used.add(c.contextName));
      if (strategy.parameters.stickiness !== undefined) used.add(strategy.parameters.stickiness);
      strategy.variants.forEach((v) => used.add(v.stickiness));
    }
    for (const variant of state.variants) {
      used.add(variant.stickiness);
      variant.overrides.forEach((o) => used.add(o.contextName));
    }
  }
  for (const name of BUILT_IN_STICKINESS) used.delete(name);
  return used;
}
