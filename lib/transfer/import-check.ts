import type { ImportData } from './schemas.js';
import { DomainError } from '../errors.js';
import type { Feature } from '../features/model.js';
import { projectNameMatcher } from '../features/rules/naming.js';
import { normaliseVariants } from '../features/rules/variants.js';
import type { Project } from '../projects/model.js';
import type { TransferCatalog } from './ports.js';

export interface Problem {
  message: string;
  affectedItems: string[];
}

export interface ImportCheck {
  errors: Problem[];
  /** Features archived in the target project: skipped, as in Unleash. */
  skipped: string[];
}

/**
 * Everything that would make an import fail, found before anything is written, so the answer
 * lists every problem at once and a refused import leaves the store untouched.
 */
export async function checkImport(
  data: ImportData,
  project: Project,
  environment: string,
  existing: Map<string, Feature>,
  catalog: TransferCatalog,
): Promise<ImportCheck> {
  const errors: Problem[] = [];
  const add = (message: string, items: Iterable<string>) => {
    const affectedItems = [...new Set(items)].sort();
    if (affectedItems.length > 0) errors.push({ message, affectedItems });
  };
  const names = new Set(data.features.map((f) => f.name));
  if (!project.environments.includes(environment)) add(`The environment is not enabled in the project ${project.id}`, [environment]);
  add('These features exist in other projects', [...names].filter((n) => existing.has(n) && existing.get(n)?.project !== project.id));
  const pattern = project.featureNaming?.pattern;
  if (pattern) {
    const matches = projectNameMatcher(project);
    add(`These names do not match the project's naming pattern ${pattern}`, [...names].filter((n) => !matches(n)));
  }
  const fresh = [...names].filter((n) => !existing.has(n));
  if (project.featureLimit !== null) {
    const active = [...existing.values()].filter((f) => f.project === project.id && !f.archived).length;
    if (active + fresh.length > project.featureLimit) add(`The import would pass the project's limit of ${project.featureLimit} features`, fresh);
  }
  add('These strategies belong to features that are not in the import', data.featureStrategies.map((s) => s.featureName).filter((n) => !names.has(n)));
  const unknownTypes: string[] = [];
  for (const type of new Set(data.featureStrategies.map((s) => s.name))) {
    if (!(await catalog.strategyTypeExists(type))) unknownTypes.push(type);
  }
  add('These strategy types do not exist', unknownTypes);
  const fields = new Set([...(await catalog.contextFields()).map((f) => f.name), ...data.contextFields.map((f) => f.name)]);
  add('These context fields do not exist and are not in the import', data.featureStrategies.flatMap((s) => s.constraints.map((c) => c.contextName)).filter((n) => !fields.has(n)));
  const segmentNames = new Map(data.segments.map((s) => [s.id, s.name]));
  const targetSegments = new Set((await catalog.segments()).map((s) => s.name));
  add('These segments are not in the import', data.featureStrategies.flatMap((s) => s.segments).filter((id) => !segmentNames.has(id)).map(String));
  add('These segments do not exist here (segments are matched by name)', [...segmentNames.values()].filter((n) => !targetSegments.has(n)));
  const tagTypes = new Set([...(await catalog.tagTypes()).map((t) => t.name), ...data.tagTypes.map((t) => t.name)]);
  add('These tag types do not exist and are not in the import', data.featureTags.map((t) => t.tagType).filter((t) => !tagTypes.has(t)));
  add('These parents are neither in the import nor active in the project', data.dependencies.flatMap((d) => d.dependencies.map((p) => p.feature))
    .filter((p) => !names.has(p) && !(existing.get(p)?.project === project.id && !existing.get(p)?.archived)));
  add('These features have variants that cannot be saved', invalidVariants(data));
  return { errors, skipped: [...names].filter((n) => existing.get(n)?.project === project.id && existing.get(n)?.archived) };
}

function invalidVariants(data: ImportData): string[] {
  const invalid: string[] = [];
  const lists = [
    ...data.featureEnvironments.map((e) => ({ feature: e.featureName, variants: e.variants })),
    ...data.featureStrategies.map((s) => ({ feature: s.featureName, variants: s.variants })),
  ];
  for (const { feature, variants } of lists) {
    try {
      normaliseVariants(variants);
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      invalid.push(feature);
    }
  }
  return invalid;
}
