import type { ProjectStatsCatalog } from './ports.js';
import { projectStats, WINDOW_DAYS, type ProjectStats } from './project-stats.js';

const DAY_MS = 24 * 60 * 60 * 1000;

export class ProjectStatsService {
  constructor(
    private readonly catalog: ProjectStatsCatalog,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /**
   * Reads the project's history back to its oldest feature (at least both 30-day windows), so
   * a feature's first production enabling is told apart from a later re-enabling.
   */
  async forProject(projectId: string): Promise<ProjectStats> {
    const now = this.now();
    const [own, environments] = await Promise.all([this.catalog.projectFeatures(projectId), this.catalog.environments()]);
    const windows = now.getTime() - 2 * WINDOW_DAYS * DAY_MS;
    const since = own.reduce((earliest, feature) => Math.min(earliest, Date.parse(feature.createdAt)), windows);
    const events = await this.catalog.eventsBetween(new Date(since), now);
    const production = new Set(environments.filter((e) => e.type === 'production').map((e) => e.name));
    return projectStats(projectId, own, events, production, now);
  }
}
