import { NotFound } from '../errors.js';
import { ALL } from '../tokens/model.js';
import { applicationOf, isFrontendSdk, type Application } from './model.js';
import type { ApplicationRegistrations } from './store.js';

export interface ApplicationSearch {
  query?: string | undefined;
  offset: number;
  limit: number;
  sortOrder: 'asc' | 'desc';
}

/**
 * Unleash's applications view (the admin UI's Applications page), from the registrations SDKs
 * send. Only the newest instance of each application and token scope is kept (ADR 15 keeps
 * metrics per feature, not per application), so instance counts are at most one a scope and
 * an application's `featureCount` is not known (0).
 */
export class ApplicationService {
  constructor(
    private readonly registrations: ApplicationRegistrations,
    /** Registrations lapse by this clock (a test moves it), not by when DynamoDB's TTL sweep runs. */
    private readonly now: () => Date = () => new Date(),
  ) {}

  async list(search: ApplicationSearch, project?: string): Promise<{ applications: Application[]; total: number }> {
    const byName = new Map<string, Parameters<typeof applicationOf>[0]>();
    for (const registration of await this.registrations.list(this.now())) {
      // A project's applications: those registered with a token of that project or of every project.
      if (project !== undefined && !registration.projects.some((scope) => scope === project || scope === ALL)) continue;
      byName.set(registration.appName, [...(byName.get(registration.appName) ?? []), registration]);
    }
    const query = search.query?.toLowerCase();
    const matches = [...byName.values()].map(applicationOf).filter((application) => !query || application.appName.toLowerCase().includes(query));
    matches.sort((a, b) => (a.appName < b.appName ? -1 : a.appName > b.appName ? 1 : 0) * (search.sortOrder === 'desc' ? -1 : 1));
    return { applications: matches.slice(search.offset, search.offset + search.limit), total: matches.length };
  }

  async get(appName: string): Promise<Application> {
    const registrations = await this.registrations.ofApplication(appName, this.now());
    if (registrations.length === 0) throw new NotFound(`Could not find application with appName ${appName}`);
    return applicationOf(registrations);
  }

  /**
   * Removes an application: its registrations in every token scope, which frees their places
   * under the scopes' cap. As in Unleash, a name with no registration is removed all the same
   * (no 404), and no change event is recorded (registrations are SDK usage, not configuration).
   */
  async remove(appName: string): Promise<void> {
    await this.registrations.remove(appName, this.now());
  }

  /** Unleash's application overview: per environment, its instances and SDKs. */
  async overview(appName: string) {
    const application = await this.get(appName);
    const environments = [...new Set(application.registrations.map((registration) => registration.environment))].sort();
    return {
      projects: application.usage.map((usage) => usage.project),
      featureCount: 0,
      environments: environments.map((name) => {
        const here = application.registrations.filter((registration) => registration.environment === name);
        const sdks = [...new Set(here.flatMap((registration) => (registration.sdkVersion ? [registration.sdkVersion] : [])))].sort();
        return {
          name,
          instanceCount: new Set(here.map((registration) => registration.instanceId)).size,
          sdks,
          frontendSdks: sdks.filter(isFrontendSdk),
          backendSdks: sdks.filter((sdk) => !isFrontendSdk(sdk)),
          lastSeen: here[0]?.lastSeen ?? null,
          issues: { missingFeatures: [], outdatedSdks: [] },
        };
      }),
      issues: { missingStrategies: [] },
    };
  }

  /** The instances of an application seen in one environment: the newest of each token scope. */
  async instances(appName: string, environment: string) {
    const registrations = await this.registrations.ofApplication(appName, this.now());
    return {
      instances: registrations
        .filter((registration) => registration.environment === environment && registration.instanceId)
        .map((registration) => ({ instanceId: registration.instanceId as string, sdkVersion: registration.sdkVersion, clientIp: null, lastSeen: registration.lastSeen })),
    };
  }
}
