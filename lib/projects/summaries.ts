import type { Feature } from '../features/model.js';
import { projectHealth } from './health.js';
import type { ProjectSummary } from './model.js';
import type { StoredProject } from './store.js';

/** Every stored project with its health from `features` (every feature, archived ones too), by name. */
export function projectSummaries(stored: readonly StoredProject[], features: readonly Feature[], now: Date): ProjectSummary[] {
  return stored
    .map(({ project, featureCount }) => ({
      ...project,
      featureCount,
      health: projectHealth(features.filter((feature) => feature.project === project.id), now),
    }))
    .sort((a, b) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id));
}

/** Active features of every project, from their counts (ADR 14): no feature is read. */
export function activeFeatureCountOf(stored: readonly StoredProject[]): number {
  return stored.reduce((sum, { featureCount }) => sum + featureCount, 0);
}
