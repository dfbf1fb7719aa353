import { createHash } from 'node:crypto';
import type { OperationsFor } from '../http/operation.js';
import { log } from '../log.js';
import { ROOT_ROLE, rootRoleById } from '../roles/model.js';
import { isUserCaller } from '../sessions/model.js';
import type { UiSupportPorts } from './ports.js';
import type { uiSupportRoutes } from './routes.js';
import type { UiSupportService } from './service.js';

const stage = (currentFlags: number) => ({ averageDays: null, currentFlags });

export const uiSupportOperations = (
  { uiSupport }: { uiSupport: UiSupportService }, ports: UiSupportPorts,
): OperationsFor<typeof uiSupportRoutes> => ({
  ...statisticsOperation(ports),
  ...pageOperations({ uiSupport }),
});

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Admin settings → Instance stats, counted when asked from the collections' own items (the flag
 * count from the projects' count shards, ADR 14: never a read of every flag). Unleash also hashes
 * the figures into `sum` for its telemetry; here it is the same digest of the same figures.
 */
const statisticsOperation = (ports: UiSupportPorts): Pick<OperationsFor<typeof uiSupportRoutes>, 'getInstanceStatistics'> => ({
  getInstanceStatistics: async () => {
    const [instance, seenTimes, tokens, flags, projects, contextFields, groups, environments, segments, strategies] = await Promise.all([
      ports.instance(), ports.userSeenTimes(), ports.apiTokenTypes(), ports.activeFeatureCount(), ports.projectCount(), ports.contextFieldCount(),
      ports.groupCount(), ports.environmentCount(), ports.segmentCount(), ports.strategyTypeCount(),
    ]);
    const now = Date.now();
    const seenWithin = (days: number) => seenTimes.filter((seenAt) => seenAt !== null && now - Date.parse(seenAt) <= days * DAY_MS).length;
    const tokenTypes: Record<string, number> = {};
    for (const type of tokens) tokenTypes[type] = (tokenTypes[type] ?? 0) + 1;
    const figures = {
      instanceId: instance.instanceId, timestamp: new Date(now).toISOString(), versionOSS: instance.version,
      users: seenTimes.length, serviceAccounts: 0, apiTokens: tokenTypes, featureToggles: flags, projects,
      contextFields, roles: 3, customRootRoles: 0, customRootRolesInUse: 0, groups,
      environments, segments, strategies,
      SAMLenabled: false, OIDCenabled: instance.oidcEnabled,
      clientApps: [], activeUsers: { last7: seenWithin(7), last30: seenWithin(30), last60: seenWithin(60), last90: seenWithin(90) },
    };
    return { body: { ...figures, sum: createHash('sha256').update(JSON.stringify(figures)).digest('hex') } };
  },
});

const pageOperations = ({ uiSupport }: { uiSupport: UiSupportService }): Omit<OperationsFor<typeof uiSupportRoutes>, 'getInstanceStatistics'> => ({
  getProfile: async ({ caller }) => {
    // Admin tokens hold every permission, as the Admin role does.
    const { id, name, type, description } = rootRoleById(isUserCaller(caller) ? caller.rootRole : ROOT_ROLE.Admin)!;
    return { body: { rootRole: { id, name, type, description }, projects: [], subscriptions: [], features: [] } };
  },
  getPersonalDashboard: async () => ({ body: { projects: [], flags: [], admins: [], projectOwners: [] } }),
  getPersonalDashboardProject: async ({ params }) => {
    const facts = await uiSupport.projectFacts(params.projectId);
    return {
      body: {
        owners: [{ ownerType: 'system' }],
        roles: [],
        latestEvents: [],
        onboardingStatus: { status: 'onboarded' },
        insights: {
          avgHealthCurrentWindow: null, avgHealthPastWindow: null,
          totalFlags: facts.total, activeFlags: facts.active, staleFlags: facts.stale, potentiallyStaleFlags: facts.potentiallyStale,
          health: facts.health, technicalDebt: 100 - facts.health,
        },
      },
    };
  },
  getProjectStatus: async ({ params }) => {
    const facts = await uiSupport.projectFacts(params.projectId);
    return {
      body: {
        activityCountByDate: [],
        resources: { members: 0, apiTokens: 0, segments: 0 },
        health: { current: facts.health },
        technicalDebt: { current: 100 - facts.health },
        lifecycleSummary: { initial: stage(facts.active), preLive: stage(0), live: stage(0), completed: stage(0), archived: stage(facts.archived) },
        staleFlags: { total: facts.stale },
      },
    };
  },
  getProjectFlagCreators: async ({ params }) => {
    await uiSupport.ensureProject(params.projectId);
    return { body: [] };
  },
  getOutdatedSdks: async () => ({ body: { sdks: [] } }),
  getTelemetrySettings: async () => ({ body: { versionInfoCollectionEnabled: false, featureInfoCollectionEnabled: false } }),
  recordUiError: async ({ caller, body }) => {
    log.warn('The admin UI met an error', { caller: caller.tokenName, message: body.errorMessage, stack: body.errorStack });
    return {};
  },
});
