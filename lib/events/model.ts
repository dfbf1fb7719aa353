import { randomUUID } from 'node:crypto';
import { environmentOf, type Feature } from '../features/model.js';
import { sameData } from '../features/rules/same.js';

/**
 * A change event: what changed, when, by whom. Written in the same transaction as the change
 * itself, so the record can neither miss a change nor tell of one that did not happen. Project
 * statistics, insights and the event log (lib/events/service.ts) read them.
 */
export interface ChangeEvent {
  id: string;
  type: string;
  createdAt: string;
  /** The API token's name, or `system` for changes the service makes itself. */
  createdBy: string;
  project?: string | undefined;
  featureName?: string | undefined;
  /** Details, e.g. for a feature change the list of what changed (`enabled:production`, …). */
  changes?: string[] | undefined;
}

/** An event made now by `createdBy`, the actor the service was given by its caller. */
export function changeEvent(type: string, details: Omit<ChangeEvent, 'id' | 'type' | 'createdAt' | 'createdBy'>, createdBy: string): ChangeEvent {
  return { id: randomUUID(), type, createdAt: new Date().toISOString(), createdBy, ...details };
}

/**
 * What changed between two versions of a feature, as short labels: `created`, `archived`,
 * `revived`, `deleted`, `stale-on`, `stale-off`, `metadata`, `tags`, `dependencies`, and per
 * environment `enabled:<env>`, `disabled:<env>`, `strategies:<env>`, `variants:<env>`.
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
  if (!same(before.tags, after.tags)) changes.push('tags');
  if (!same(before.dependencies, after.dependencies) || !same(before.children, after.children)) changes.push('dependencies');
  const environments = new Set([...Object.keys(before.environments), ...Object.keys(after.environments)]);
  for (const name of [...environments].sort()) {
    const [was, now] = [environmentOf(before, name), environmentOf(after, name)];
    if (was.enabled !== now.enabled) changes.push(`${now.enabled ? 'enabled' : 'disabled'}:${name}`);
    if (!same(was.strategies, now.strategies)) changes.push(`strategies:${name}`);
    if (!same(was.variants, now.variants)) changes.push(`variants:${name}`);
  }
  return changes;
}

const same = sameData;
