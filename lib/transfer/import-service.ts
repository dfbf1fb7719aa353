import { randomUUID } from 'node:crypto';
import type { ImportData } from './schemas.js';
import { ValidationFailed } from '../errors.js';
import type { FeatureAggregates } from '../features/aggregate.js';
import { featureChanges } from '../features/changes.js';
import { environmentOf, type Feature, type FeatureStrategy } from '../features/model.js';
import { turnOff, turnOn, withEnvironment } from '../features/rules/environments.js';
import { sameData } from '../features/rules/same.js';
import { normaliseVariants } from '../features/rules/variants.js';
import type { FeatureWrite } from '../features/store.js';
import type { Project } from '../projects/model.js';
import { checkImport, type Problem } from './import-check.js';
import type { TransferCatalog } from './ports.js';

export interface ImportRequest {
  project: string;
  environment: string;
  data: ImportData;
}

/**
 * Features per transaction: each is three items (the feature, its project's copy, its change
 * event; ADR 17), leaving room for the counts, segments, strategy types and the revision.
 */
const CHUNK = 28;

/**
 * The export's counterpart. Checks everything first; then creates missing context fields and
 * tag types, and creates or updates each feature: metadata, the environment's strategies and
 * variants (replaced), tags (replaced), enabled state (by E7's rules) and dependencies. A
 * feature whose result equals what is stored is not written, so importing twice changes nothing.
 */
export class ImportService {
  constructor(
    private readonly aggregates: FeatureAggregates,
    private readonly catalog: TransferCatalog,
  ) {}

  async validate(request: ImportRequest): Promise<{ errors: Problem[]; warnings: Problem[]; permissions: Problem[] }> {
    const { check } = await this.prepare(request);
    const warnings = check.skipped.length > 0 ? [{ message: 'Archived features in the project are skipped', affectedItems: check.skipped }] : [];
    return { errors: check.errors, warnings, permissions: [] };
  }

  async import(request: ImportRequest, actor: string): Promise<void> {
    const { project, check, existing } = await this.prepare(request);
    if (check.errors.length > 0) {
      throw new ValidationFailed(check.errors.map((e) => `${e.message}: ${e.affectedItems.join(', ')}`).join('; '));
    }
    await this.createCatalogEntries(request.data);
    const segmentIds = await this.segmentIdsByExportedId(request.data);
    const skipped = new Set(check.skipped);
    const plan = (before: Feature | undefined, name: string) =>
      planFeature(before, name, request, project, segmentIds, skipped);
    const touched = [...affectedNames(request.data, existing)].filter((name) => !skipped.has(name)).sort();
    for (let start = 0; start < touched.length; start += CHUNK) {
      const chunk = touched.slice(start, start + CHUNK);
      await this.aggregates.apply(actor, async (read) => {
        const writes: FeatureWrite[] = [];
        for (const name of chunk) {
          const before = await read(name);
          const after = plan(before, name);
          if (after && featureChanges(before, after).length > 0) {
            writes.push({ before, after: { ...after, version: (before?.version ?? 0) + 1 } });
          }
        }
        const created = writes.filter((w) => !w.before).length;
        return {
          commit: { writes, projectFeatureCounts: { [project.id]: { delta: created, applyLimit: true } } },
          result: undefined,
        };
      });
    }
  }

  private async prepare(request: ImportRequest) {
    const project = await this.catalog.project(request.project);
    const existing = new Map((await this.aggregates.store.listAll()).map((f) => [f.name, f]));
    const check = await checkImport(request.data, project, request.environment, existing, this.catalog);
    return { project, existing, check };
  }

  private async createCatalogEntries(data: ImportData): Promise<void> {
    const fields = new Set((await this.catalog.contextFields()).map((f) => f.name));
    for (const field of data.contextFields.filter((f) => !fields.has(f.name))) {
      await this.catalog.createContextField({
        name: field.name, description: field.description ?? null, stickiness: field.stickiness,
        sortOrder: field.sortOrder ?? 10, legalValues: field.legalValues,
      });
    }
    const tagTypes = new Set((await this.catalog.tagTypes()).map((t) => t.name));
    for (const type of data.tagTypes.filter((t) => !tagTypes.has(t.name))) {
      await this.catalog.createTagType({ name: type.name, description: type.description ?? null, icon: type.icon ?? null });
    }
  }

  /** Segments travel by name: the exported id maps to the id of the same-named segment here. */
  private async segmentIdsByExportedId(data: ImportData): Promise<Map<number, number>> {
    const byName = new Map((await this.catalog.segments()).map((s) => [s.name, s.id]));
    return new Map(data.segments.map((s) => [s.id, byName.get(s.name) as number]));
  }
}

/** Imported features, plus existing parents whose list of children the import changes. */
function affectedNames(data: ImportData, existing: Map<string, Feature>): Set<string> {
  const names = new Set(data.features.map((f) => f.name));
  for (const dependency of data.dependencies) dependency.dependencies.forEach((parent) => names.add(parent.feature));
  for (const feature of data.features) {
    for (const parent of existing.get(feature.name)?.dependencies ?? []) names.add(parent.feature);
  }
  return names;
}

function planFeature(
  before: Feature | undefined,
  name: string,
  { data, environment, project: projectId }: ImportRequest,
  project: Project,
  segmentIds: Map<number, number>,
  skipped: Set<string>,
): Feature | undefined {
  const imported = data.features.find((f) => f.name === name);
  const children = childrenAfterImport(name, before, data);
  if (!imported) return before ? { ...before, children } : undefined;
  if (before?.archived || skipped.has(name)) return undefined;
  let feature: Feature = {
    ...(before ?? emptyFeature(name, projectId)),
    description: imported.description ?? null, type: imported.type, stale: imported.stale, impressionData: imported.impressionData,
    tags: data.featureTags.filter((t) => t.featureName === name).map((t) => ({ type: t.tagType, value: t.tagValue })),
    dependencies: (data.dependencies.find((d) => d.feature === name)?.dependencies ?? []).slice(0, 1)
      .map((d) => ({ feature: d.feature, enabled: d.enabled, variants: d.enabled ? d.variants : [] })),
    children,
  };
  const state = data.featureEnvironments.find((e) => e.featureName === name);
  const strategies = importedStrategies(data, name, segmentIds);
  feature = withEnvironment(feature, environment, (s) => ({ ...s, strategies, variants: normaliseVariants(state?.variants ?? []) }));
  feature = state?.enabled ? turnOn(feature, environment, project.defaultStrategies[environment], randomUUID()) : turnOff(feature, environment);
  return keepStrategyIds(feature, before, environment);
}

function importedStrategies(data: ImportData, name: string, segmentIds: Map<number, number>): FeatureStrategy[] {
  return data.featureStrategies.filter((s) => s.featureName === name).map((s, index): FeatureStrategy => ({
    id: randomUUID(), name: s.name, title: s.title ?? null, disabled: s.disabled ?? false, sortOrder: s.sortOrder ?? index,
    constraints: s.constraints, parameters: s.parameters, variants: normaliseVariants(s.variants),
    segments: s.segments.map((id) => segmentIds.get(id) as number),
  }));
}

/** When the imported strategies equal the stored ones but for their ids, the stored ones stay, ids and all. */
function keepStrategyIds(after: Feature, before: Feature | undefined, environment: string): Feature {
  if (!before) return after;
  const withoutIds = (list: FeatureStrategy[]) => list.map(({ id: _id, ...rest }) => rest);
  const stored = environmentOf(before, environment).strategies;
  if (!sameData(withoutIds(environmentOf(after, environment).strategies), withoutIds(stored))) return after;
  return withEnvironment(after, environment, (state) => ({ ...state, strategies: stored }));
}

function childrenAfterImport(name: string, before: Feature | undefined, data: ImportData): string[] {
  const importedNames = new Set(data.features.map((f) => f.name));
  const kept = (before?.children ?? []).filter((child) => !importedNames.has(child));
  const added = data.dependencies.filter((d) => d.dependencies.some((p) => p.feature === name)).map((d) => d.feature);
  return [...new Set([...kept, ...added])].sort();
}

function emptyFeature(name: string, project: string): Feature {
  return {
    name, project, type: 'release', description: null, impressionData: false, stale: false, archived: false,
    archivedAt: null, createdAt: new Date().toISOString(), environments: {}, tags: [], dependencies: [], children: [], version: 0,
  };
}
