import type { ChangeEvent } from '../events/model.js';
import type { Feature } from '../features/model.js';
import type { ProjectStatsCatalog } from './ports.js';
import { ProjectActivity } from './project-activity.js';
import { enabledFirstInCurrentWindow, enablesInProduction, projectStatsOf, WINDOW_DAYS, type ProjectStats } from './project-stats.js';

const DAY_MS = 24 * 60 * 60 * 1000;
/**
 * Up to this many features first enabled in production in the current window, each one's older
 * history is one small Query of its own partition of the events index, all at once; above, the
 * instance's events back to the project's oldest feature are read (kept per container after).
 */
const LOOKED_UP_ONE_BY_ONE = 25;

export class ProjectStatsService {
  /** Every project's events of the windows, counted once per container (its reads by time answer from what it keeps). */
  private readonly activity: ProjectActivity;

  constructor(
    private readonly catalog: ProjectStatsCatalog,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.activity = new ProjectActivity({
      between: (from, to) => catalog.eventsBetween(from, to),
      lateCommitsFound: () => catalog.lateCommitsFound?.() ?? 0,
    }, now);
  }

  /**
   * The figures count the events of both 30-day windows, from what this container counted of
   * them before (ProjectActivity) and what is newer. Time to production also needs to tell a
   * feature's first production enabling from a later one, which history back to the project's
   * oldest feature decides: it is looked up only for the features whose first enabling in the
   * windows falls in the current one (none, mostly), so a cold container reads two months of
   * events, not years, and reads them while the features are read. `features`: the project's
   * features (archived ones too) when the caller reads them anyway.
   */
  async forProject(projectId: string, features?: readonly Feature[] | Promise<readonly Feature[]>): Promise<ProjectStats> {
    const now = this.now();
    const windowsStart = now.getTime() - 2 * WINDOW_DAYS * DAY_MS;
    const span = { from: windowsStart, to: now.getTime() };
    const [own, environments, counts] = await Promise.all([
      features ?? this.catalog.projectFeatures(projectId), this.catalog.environments(), this.activity.of(projectId, new Date(windowsStart), now),
    ]);
    const since = own.reduce((earliest, feature) => Math.min(earliest, Date.parse(feature.createdAt)), windowsStart);
    const production = new Set(environments.filter((e) => e.type === 'production').map((e) => e.name));
    const candidates = since < windowsStart ? enabledFirstInCurrentWindow(projectId, own, counts, span, production, now) : [];
    const enabledBefore = candidates.length === 0
      ? new Set<string>()
      : await this.enabledInProductionBetween(projectId, candidates, production, new Date(since), new Date(windowsStart));
    return projectStatsOf(projectId, own, counts, span, production, now, enabledBefore);
  }

  /** Which of `names` the project's events of [from, to) show enabled in production. */
  private async enabledInProductionBetween(
    projectId: string, names: readonly string[], production: ReadonlySet<string>, from: Date, to: Date,
  ): Promise<Set<string>> {
    const wanted = new Set(names);
    const older: readonly ChangeEvent[] = names.length <= LOOKED_UP_ONE_BY_ONE
      ? (await Promise.all(names.map((name) => this.catalog.featureEventsBetween(name, from, to)))).flat()
      : await this.catalog.eventsBetween(from, to);
    return new Set(older
      .filter((event) => event.project === projectId && wanted.has(event.featureName as string) && enablesInProduction(event, production))
      .map((event) => event.featureName as string));
  }
}
