import { environmentOf, type Feature } from './model.js';
import { sameData } from './rules/same.js';

/**
 * What changed between two versions of a feature, as short labels: `created`, `archived`,
 * `revived`, `deleted`, `stale-on`, `stale-off`, `metadata`, `tags`, `dependencies`, and per
 * environment `enabled:<env>`, `disabled:<env>`, `strategies:<env>`, `variants:<env>`. A feature
 * change event lists them (lib/events/model.ts); the feature model owns them, so the change
 * events need not know what a feature is.
 */
export function featureChanges(before: Feature | undefined, after: Feature | undefined): string[] {
  if (!before) return ['created'];
  if (!after) return ['deleted'];
  const changes: string[] = [];
  if (!before.archived && after.archived) changes.push('archived');
  if (before.archived && !after.archived) changes.push('revived');
  if (before.stale !== after.stale) changes.push(after.stale ? 'stale-on' : 'stale-off');
  if (before.description !== after.description || before.type !== after.type || before.impressionData !== after.impressionData) {
    changes.push('metadata');
  }
  if (!sameData(before.tags, after.tags)) changes.push('tags');
  if (!sameData(before.dependencies, after.dependencies) || !sameData(before.children, after.children)) changes.push('dependencies');
  const environments = new Set([...Object.keys(before.environments), ...Object.keys(after.environments)]);
  for (const name of [...environments].sort()) {
    const [was, now] = [environmentOf(before, name), environmentOf(after, name)];
    if (was.enabled !== now.enabled) changes.push(`${now.enabled ? 'enabled' : 'disabled'}:${name}`);
    if (!sameData(was.strategies, now.strategies)) changes.push(`strategies:${name}`);
    if (!sameData(was.variants, now.variants)) changes.push(`variants:${name}`);
  }
  return changes;
}
