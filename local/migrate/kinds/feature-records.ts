/**
 * Every feature of a side, read in bulk through the feature export both servers have (one
 * request per environment and hundred features) and folded into one record per feature: its
 * metadata, each environment's state, strategies, variants, its dependencies and tags.
 */
import { encode, type AdminSide } from '../http.js';
import {
  normaliseConstraint, normaliseDependencies, normaliseParameters, normaliseVariant, text,
  type WireConstraint, type WireDependency, type WireVariant,
} from '../normalise.js';

export interface ExportFeature { name: string; description?: string | null; type: string; project: string; stale?: boolean; impressionData?: boolean; archived?: boolean }
export interface ExportStrategy {
  featureName: string; id?: string; sortOrder?: number; name: string; title?: string | null; parameters?: Record<string, unknown>;
  constraints?: WireConstraint[]; variants?: WireVariant[]; disabled?: boolean | null; segments?: number[];
}
export interface ExportDocument {
  features: ExportFeature[];
  featureStrategies: ExportStrategy[];
  featureEnvironments: Array<{ featureName: string; environment?: string; enabled: boolean; variants?: WireVariant[]; name?: string }>;
  featureTags: Array<{ featureName: string; tagType: string; tagValue: string }>;
  segments?: Array<{ id: number; name: string }>;
  dependencies?: Array<{ feature: string; dependencies: WireDependency[] }>;
  contextFields?: unknown[];
  tagTypes?: unknown[];
  links?: unknown[];
}

export interface FeatureRecord {
  name: string;
  project: string;
  archived: boolean;
  stale: boolean;
  /** The comparable form: what must be equal on both sides. */
  comparable: Record<string, unknown>;
}

export interface SideFeatures {
  records: Map<string, FeatureRecord>;
  /** Each environment's export, for the import of the features that differ. */
  exports: Map<string, ExportDocument>;
}

const EXPORT_CHUNK = 100;

/** The names of a project's features: active from its list, archived through the search both sides have. */
export async function featureNamesOf(side: AdminSide, project: string): Promise<string[]> {
  const active = await side.optional<{ features: Array<{ name: string }> }>('GET', `/api/admin/projects/${encode(project)}/features`);
  if (active === undefined) return [];
  const names = active.features.map((feature) => feature.name);
  for (let offset = 0; ; offset += 100) {
    const page = await side.request<{ features: Array<{ name: string }>; total?: number }>(
      'GET', `/api/admin/search/features?project=${encode(`IS:${project}`)}&archived=${encode('IS:true')}&limit=100&offset=${offset}`,
    );
    names.push(...page.features.map((feature) => feature.name));
    if (page.features.length < 100 || (page.total !== undefined && offset + 100 >= page.total)) break;
  }
  return [...new Set(names)];
}

export async function readFeatures(side: AdminSide, names: string[], environments: string[]): Promise<SideFeatures> {
  const exports = new Map<string, ExportDocument>();
  for (const environment of environments) {
    const merged: ExportDocument = { features: [], featureStrategies: [], featureEnvironments: [], featureTags: [], segments: [], dependencies: [], contextFields: [], tagTypes: [] };
    for (let start = 0; start < names.length; start += EXPORT_CHUNK) {
      const part = await side.request<ExportDocument>('POST', '/api/admin/features-batch/export', { features: names.slice(start, start + EXPORT_CHUNK), environment });
      merged.features.push(...part.features);
      merged.featureStrategies.push(...part.featureStrategies);
      merged.featureEnvironments.push(...part.featureEnvironments);
      merged.featureTags.push(...part.featureTags);
      merged.dependencies!.push(...(part.dependencies ?? []));
      for (const segment of part.segments ?? []) if (!merged.segments!.some((known) => known.id === segment.id)) merged.segments!.push(segment);
    }
    exports.set(environment, merged);
  }
  await orderStrategies(side, exports);
  return { records: foldRecords(exports), exports };
}

/**
 * Puts each feature's strategies in their evaluation order, which decides whose variants an SDK
 * uses. This service's export carries each strategy's sortOrder. Unleash 7.6.5's carries none and
 * lists a feature's strategies in no particular order, so for a feature with more than one
 * strategy in an environment the order is read from the feature itself (one request per such
 * feature); an archived feature cannot be read that way there and keeps the export's order.
 */
async function orderStrategies(side: AdminSide, exports: Map<string, ExportDocument>) {
  const unordered = new Map<string, string>();
  for (const document of exports.values()) {
    const counts = new Map<string, number>();
    for (const strategy of document.featureStrategies) counts.set(strategy.featureName, (counts.get(strategy.featureName) ?? 0) + 1);
    for (const feature of document.features) {
      const withoutOrder = document.featureStrategies.some((s) => s.featureName === feature.name && s.sortOrder === undefined);
      if ((counts.get(feature.name) ?? 0) > 1 && withoutOrder && !feature.archived) unordered.set(feature.name, feature.project);
    }
  }
  const positions = new Map<string, number>();
  for (const [name, project] of unordered) {
    const feature = await side.optional<{ environments: Array<{ strategies: Array<{ id: string }> }> }>('GET', `/api/admin/projects/${encode(project)}/features/${encode(name)}`);
    for (const environment of feature?.environments ?? []) environment.strategies.forEach((strategy, index) => positions.set(strategy.id, index));
  }
  for (const document of exports.values()) {
    const position = (strategy: ExportStrategy) => strategy.sortOrder ?? (strategy.id === undefined ? undefined : positions.get(strategy.id)) ?? 0;
    const byFeature = new Map<string, ExportStrategy[]>();
    for (const strategy of document.featureStrategies) byFeature.set(strategy.featureName, [...(byFeature.get(strategy.featureName) ?? []), strategy]);
    // Array.prototype.sort is stable: strategies of equal position keep the export's order.
    document.featureStrategies = [...byFeature.values()].flatMap((strategies) => strategies.sort((a, b) => position(a) - position(b)));
  }
}

function foldRecords(exports: Map<string, ExportDocument>): Map<string, FeatureRecord> {
  const records = new Map<string, FeatureRecord>();
  for (const [environment, document] of exports) {
    const segmentNames = new Map((document.segments ?? []).map((segment) => [segment.id, segment.name]));
    for (const feature of document.features) {
      const record = records.get(feature.name) ?? newRecord(feature, document);
      records.set(feature.name, record);
      const state = document.featureEnvironments.find((env) => env.featureName === feature.name);
      (record.comparable.environments as Record<string, unknown>)[environment] = {
        enabled: state?.enabled === true,
        variants: (state?.variants ?? []).map(normaliseVariant),
        strategies: document.featureStrategies
          .filter((strategy) => strategy.featureName === feature.name)
          .map((strategy) => normaliseStrategy(strategy, segmentNames)),
      };
    }
  }
  return records;
}

function newRecord(feature: ExportFeature, document: ExportDocument): FeatureRecord {
  const dependencies = document.dependencies?.find((entry) => entry.feature === feature.name)?.dependencies;
  return {
    name: feature.name,
    project: feature.project,
    archived: feature.archived === true,
    stale: feature.stale === true,
    comparable: {
      project: feature.project,
      type: feature.type,
      description: text(feature.description),
      stale: feature.stale === true,
      impressionData: feature.impressionData === true,
      archived: feature.archived === true,
      dependencies: normaliseDependencies(dependencies),
      tags: document.featureTags.filter((tag) => tag.featureName === feature.name).map((tag) => `${tag.tagType}:${tag.tagValue}`).sort(),
      environments: {},
    },
  };
}

export function normaliseStrategy(strategy: Omit<ExportStrategy, 'featureName'>, segmentNames: Map<number, string>) {
  return {
    name: strategy.name,
    title: text(strategy.title),
    parameters: normaliseParameters(strategy.parameters),
    constraints: (strategy.constraints ?? []).map(normaliseConstraint),
    segments: (strategy.segments ?? []).map((id) => segmentNames.get(id) ?? `#${id}`).sort(),
    variants: (strategy.variants ?? []).map(normaliseVariant),
    disabled: strategy.disabled === true,
  };
}

/** One environment's export narrowed to some features, every one active, ready for an import. */
export function importDocumentOf(document: ExportDocument, names: Set<string>): ExportDocument {
  return {
    features: document.features.filter((f) => names.has(f.name)).map(({ archived: _archived, ...feature }) => ({ ...feature, description: text(feature.description) })),
    featureStrategies: document.featureStrategies.filter((s) => names.has(s.featureName)),
    featureEnvironments: document.featureEnvironments.filter((e) => names.has(e.featureName)),
    featureTags: document.featureTags.filter((t) => names.has(t.featureName)),
    segments: document.segments ?? [],
    dependencies: (document.dependencies ?? []).filter((d) => names.has(d.feature)),
    contextFields: document.contextFields ?? [],
    tagTypes: document.tagTypes ?? [],
  };
}
