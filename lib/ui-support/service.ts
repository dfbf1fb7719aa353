import type { Feature } from '../features/model.js';
import type { FeatureStore } from '../features/store.js';
import { isPotentiallyStale, projectHealth } from '../projects/health.js';
import type { ProjectService } from '../projects/project-service.js';

/** A project's flags counted, from one read of its own partition (ADR 17). */
export interface ProjectFacts {
  health: number;
  total: number;
  active: number;
  archived: number;
  stale: number;
  potentiallyStale: number;
}

/**
 * The answers the admin UI needs beyond the resources themselves: where this service records
 * what Unleash shows (a project's flags, the number of active flags), from that; where it
 * records nothing (lifecycle stages, flag creators, personal favourites, project members), the
 * answer Unleash gives when there is nothing to show.
 */
export class UiSupportService {
  constructor(
    private readonly projects: Pick<ProjectService, 'getProject' | 'activeFeatureCount'>,
    private readonly features: Pick<FeatureStore, 'listProject'>,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** NotFound for a project that does not exist, as the project's other pages answer. */
  async projectFacts(projectId: string): Promise<ProjectFacts> {
    await this.projects.getProject(projectId);
    return factsOf(await this.features.listProject(projectId), this.now());
  }

  /** NotFound for a project that does not exist; one GetItem. */
  async ensureProject(projectId: string): Promise<void> {
    await this.projects.getProject(projectId);
  }
}

function factsOf(features: Feature[], now: Date): ProjectFacts {
  const active = features.filter((feature) => !feature.archived);
  return {
    health: projectHealth(features, now),
    total: features.length,
    active: active.length,
    archived: features.length - active.length,
    stale: active.filter((feature) => feature.stale).length,
    potentiallyStale: active.filter((feature) => isPotentiallyStale(feature, now)).length,
  };
}
