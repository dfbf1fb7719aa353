import { NotFound } from '../errors.js';
import { unleashEvents, type UnleashEvent } from '../events/wire.js';
import { personOf } from '../favourites/model.js';
import type { Feature } from '../features/model.js';
import type { Caller } from '../http/caller.js';
import { isPotentiallyStale, projectHealth } from '../projects/health.js';
import { onboardingStatus } from '../projects/onboarding.js';
import { rootRoleById } from '../roles/model.js';
import { imageUrlOf } from '../users/model.js';
import { adminsOf, DEFAULT_PROJECT, healthWindows, personalFlags } from './model.js';
import type { PersonalDashboardPorts } from './ports.js';

/** The project card lists this many of the project's newest events. */
const LATEST_EVENTS = 10;
/** Months read back at most to find them: events are kept by month, and a quiet project would otherwise read every month there is. */
const EVENT_MONTHS = 12;

/**
 * The first page after login (Unleash's personal dashboard) and the profile, for the person
 * calling: their projects, the flags they starred or created, the administrators, and one
 * project's card (its newest events, onboarding, owners, roles and health).
 */
export class PersonalDashboardService {
  constructor(
    private readonly ports: PersonalDashboardPorts,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async dashboard(caller: Caller) {
    const { userId } = personOf(caller);
    const [favourites, features, users] = await Promise.all([this.ports.favouritesOf(userId), this.ports.everyFeature(), this.ports.users()]);
    const ids = [...new Set([DEFAULT_PROJECT, ...favourites.projects])];
    const projects = (await Promise.all(ids.map((id) => this.projectCard(id, features)))).filter((card) => card !== undefined);
    return {
      projects: projects.sort((a, b) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id)),
      flags: personalFlags(features, userId, favourites.features),
      // Owners are people or groups holding a project's Owner role; no project roles are kept here.
      projectOwners: [],
      admins: adminsOf(users),
    };
  }

  async projectDetails(caller: Caller, projectId: string) {
    personOf(caller);
    const project = await this.ports.project(projectId);
    if (!project) throw new NotFound(`No project with id "${projectId}" exists.`);
    const now = this.now();
    const features = ofProject(await this.ports.everyFeature(), projectId);
    const active = features.filter((feature) => !feature.archived);
    const [onboarding, latestEvents, history] = await Promise.all([
      onboardingStatus(active, this.ports.lastSeen),
      this.latestEvents(projectId),
      this.ports.projectHealthHistory(projectId),
    ]);
    const stale = active.filter((feature) => feature.stale).length;
    const potentiallyStale = active.filter((feature) => isPotentiallyStale(feature, now)).length;
    const health = projectHealth(features, now);
    return {
      latestEvents: latestEvents.map((event) => ({
        id: event.id, summary: event.summary, createdBy: event.createdBy, createdAt: event.createdAt,
        createdByImageUrl: imageUrlOf({ id: 0, email: event.createdBy, username: null }),
      })),
      onboardingStatus: onboarding,
      // Unleash's answer for a project no person or group owns.
      owners: [{ ownerType: 'system' }] as [{ ownerType: 'system' }],
      // The caller's project roles: none are kept, rights come from root roles.
      roles: [],
      insights: {
        ...healthWindows(history),
        totalFlags: active.length,
        potentiallyStaleFlags: potentiallyStale,
        staleFlags: stale,
        activeFlags: active.length - stale - potentiallyStale,
        technicalDebt: 100 - health,
        health,
      },
    };
  }

  async profile(caller: Caller) {
    const person = personOf(caller);
    const role = rootRoleById(person.rootRole);
    const defaultProject = await this.ports.project(DEFAULT_PROJECT);
    return {
      rootRole: { id: person.rootRole, name: role?.name ?? 'Viewer', type: 'root', description: role?.description ?? '' },
      projects: defaultProject ? [DEFAULT_PROJECT] : [],
      // The e-mail subscriptions (Unleash's productivity report): this service sends no e-mail.
      subscriptions: [],
      // Deprecated in Unleash, which always answers it empty.
      features: [],
    };
  }

  /**
   * The project's newest events, one per action as the event log lists them, newest first
   * (the actions of one recorded change by id, descending), read back from now until there are
   * enough: the first page of the newest events when the project is busy, more pages and months
   * when it is quiet, at most EVENT_MONTHS months.
   */
  private async latestEvents(projectId: string): Promise<UnleashEvent[]> {
    const now = this.now();
    const from = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - (EVENT_MONTHS - 1), 1));
    const found: UnleashEvent[] = [];
    // A month the container keeps comes as one page of every event in it (10,000 in a busy
    // month): only the newest of the project's are made into actions, not the whole page.
    pages: for await (const page of this.ports.newestEvents(from, new Date(now.getTime() + 1))) {
      for (const event of page) {
        if (event.project !== projectId) continue;
        found.push(...unleashEvents(event).sort((a, b) => (a.id < b.id ? 1 : -1)));
        if (found.length >= LATEST_EVENTS) break pages;
      }
    }
    return found.slice(0, LATEST_EVENTS);
  }

  private async projectCard(projectId: string, everyFeature: readonly Feature[]) {
    const project = await this.ports.project(projectId);
    if (!project) return undefined;
    const features = ofProject(everyFeature, projectId);
    const health = projectHealth(features, this.now());
    return {
      id: project.id, name: project.name, health, technicalDebt: 100 - health,
      memberCount: 0, featureCount: features.filter((feature) => !feature.archived).length,
    };
  }
}

/** One project's flags, archived ones too, of every flag the admin read model holds. */
function ofProject(features: readonly Feature[], projectId: string): Feature[] {
  return features.filter((feature) => feature.project === projectId);
}
