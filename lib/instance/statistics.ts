import { createHash } from 'node:crypto';
import { PRODUCT_NAME } from './ui-config.js';

/** What the instance statistics count, each from the collection's own items (the flag count from the projects' count shards, ADR 14). */
export interface StatisticsCounts {
  /** When each user was last seen (null: never). */
  userSeenTimes(): Promise<Array<string | null>>;
  /** Each API token's type. */
  apiTokenTypes(): Promise<string[]>;
  /** Active flags of every project, from the projects' counts (no flag read). */
  activeFeatureCount(): Promise<number>;
  projectCount(): Promise<number>;
  contextFieldCount(): Promise<number>;
  groupCount(): Promise<number>;
  environmentCount(): Promise<number>;
  segmentCount(): Promise<number>;
  /** Strategy types, the built-in ones included. */
  strategyTypeCount(): Promise<number>;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Admin settings → Instance stats, counted when asked. Unleash also hashes the figures into `sum`
 * for its telemetry; here it is the same digest of the same figures. The admin home shows
 * `versionEnterprise` as "Unleash version" (Unleash OSS answers it empty): here it names this
 * service and its own version, so nobody takes it for an Unleash release.
 */
export async function instanceStatistics(
  counts: StatisticsCounts,
  instance: { instanceId: string; version: string; oidcEnabled: boolean },
  now: Date,
) {
  const [seenTimes, tokens, flags, projects, contextFields, groups, environments, segments, strategies] = await Promise.all([
    counts.userSeenTimes(), counts.apiTokenTypes(), counts.activeFeatureCount(), counts.projectCount(), counts.contextFieldCount(),
    counts.groupCount(), counts.environmentCount(), counts.segmentCount(), counts.strategyTypeCount(),
  ]);
  const seenWithin = (days: number) => seenTimes.filter((seenAt) => seenAt !== null && now.getTime() - Date.parse(seenAt) <= days * DAY_MS).length;
  const tokenTypes: Record<string, number> = {};
  for (const type of tokens) tokenTypes[type] = (tokenTypes[type] ?? 0) + 1;
  const figures = {
    instanceId: instance.instanceId, timestamp: now.toISOString(), versionOSS: instance.version,
    versionEnterprise: `${PRODUCT_NAME} ${instance.version}`,
    users: seenTimes.length, serviceAccounts: 0, apiTokens: tokenTypes, featureToggles: flags, projects,
    contextFields, roles: 3, customRootRoles: 0, customRootRolesInUse: 0, groups,
    environments, segments, strategies,
    SAMLenabled: false, OIDCenabled: instance.oidcEnabled,
    clientApps: [], activeUsers: { last7: seenWithin(7), last30: seenWithin(30), last60: seenWithin(60), last90: seenWithin(90) },
  };
  return { ...figures, sum: createHash('sha256').update(JSON.stringify(figures)).digest('hex') };
}
