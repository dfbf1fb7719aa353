import { environmentOf, type Feature, type FeatureLink } from './model.js';
import { completionOf } from './rules/lifecycle.js';
import { sameData } from './rules/same.js';

/**
 * What changed between two versions of a feature, as short labels: `created`, `archived`,
 * `revived`, `deleted`, `stale-on`, `stale-off`, `metadata`, `tags`, `link-added`, `link-updated`,
 * `link-removed`, `completed`, `uncompleted`, `dependencies`, and per
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
  changes.push(...linkChanges(before.links ?? [], after.links ?? []));
  if (before.archived === after.archived && completionOf(before) !== completionOf(after)) {
    changes.push(completionOf(after) === undefined ? 'uncompleted' : 'completed');
  }
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

/** One label per link added, changed or removed, as Unleash records an event for each. */
function linkChanges(before: readonly FeatureLink[], after: readonly FeatureLink[]): string[] {
  const was = new Map(before.map((link) => [link.id, link]));
  const now = new Map(after.map((link) => [link.id, link]));
  return [
    ...after.filter((link) => !was.has(link.id)).map(() => 'link-added'),
    ...after.filter((link) => was.has(link.id) && !sameData(was.get(link.id), link)).map(() => 'link-updated'),
    ...before.filter((link) => !now.has(link.id)).map(() => 'link-removed'),
  ];
}
