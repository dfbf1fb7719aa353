import { projectHealth } from '../projects/health.js';
import { flagCreators, lifecycleSummary, staleFlagCount } from './model.js';
import type { ProjectStatusPorts } from './ports.js';
import { isOutdatedSdk } from './sdk-cutoffs.js';

const YEAR_MS = 365 * 24 * 60 * 60 * 1000;

/**
 * A project's status page, its flag creators and its outdated SDKs, from what is stored: the
 * project's own flags (one partition), its events of the last year, the tokens and segments that
 * name it, and the SDK registrations.
 */
export class ProjectStatusService {
  constructor(
    private readonly ports: ProjectStatusPorts,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async status(projectId: string) {
    await this.ports.ensureProject(projectId);
    const now = this.now();
    const [features, activityCountByDate, apiTokens, segments] = await Promise.all([
      // The lifecycle summary counts the stages SDK metrics moved flags to as soon as they are written.
      this.ports.projectFeaturesWithMetricsStages(projectId),
      // Unleash counts the project's events of the last year, by day.
      this.ports.projectActivityByDate(projectId, new Date(now.getTime() - YEAR_MS), new Date(now.getTime() + 1)),
      this.ports.projectApiTokenCount(projectId),
      this.ports.projectSegmentCount(projectId),
    ]);
    const health = projectHealth(features, now);
    return {
      // No project memberships are kept: people's rights come from their root roles.
      resources: { members: 0, apiTokens, segments },
      activityCountByDate,
      health: { current: health },
      technicalDebt: { current: 100 - health },
      lifecycleSummary: lifecycleSummary(features, (feature) => this.ports.stagesOf(feature), now),
      staleFlags: { total: staleFlagCount(features, now) },
    };
  }

  async flagCreators(projectId: string) {
    await this.ports.ensureProject(projectId);
    return flagCreators(await this.ports.projectFeatures(projectId));
  }

  /**
   * Outdated SDK versions among the applications registered with a token that reaches the project
   * (named, or `*`), each with its applications. Unleash finds the applications from the metrics
   * they sent for the project's flags; metrics here are kept per flag, not per application, so the
   * token's projects say where an application is used.
   */
  async outdatedSdks(projectId: string) {
    await this.ports.ensureProject(projectId);
    const bySdk = new Map<string, Set<string>>();
    for (const app of await this.ports.registeredApplications()) {
      if (!isOutdatedSdk(app.sdkVersion) || !(app.projects.includes('*') || app.projects.includes(projectId))) continue;
      bySdk.set(app.sdkVersion as string, (bySdk.get(app.sdkVersion as string) ?? new Set()).add(app.appName));
    }
    return [...bySdk].sort(([a], [b]) => a.localeCompare(b)).map(([sdkVersion, apps]) => ({ sdkVersion, applications: [...apps].sort() }));
  }
}
