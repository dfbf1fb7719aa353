import type { StatisticsCounts } from '../../instance/statistics.js';
import { instanceSlice } from '../../instance/slice.js';
import { activeFeatureCountOf } from '../../projects/summaries.js';
import type { Composition } from '../composition.js';
import { apiTokenStore, frontendOrigins } from '../edge.js';
import { groupStore, loginMethods, maintenance, userStore } from '../session-edge.js';
import { contextFieldStore, environmentStore, projectStore, segmentStore } from '../stores.js';
import { strategies } from './strategies.js';

/** The instance's slice, once per composition: the login methods, the Frontend API's origins and the maintenance flag the admin edge already holds. */
export const instance = (c: Composition) => instanceSlice(c, {
  logins: c.once(loginMethods), frontendOrigins: c.once(frontendOrigins), maintenance: c.once(maintenance),
  statistics: statisticsCounts(c),
});

/**
 * What the instance statistics count: collections counted from their own items, the flag count
 * from the projects' count shards (ADR 14), and the strategy types from their service, which adds
 * the built-in ones to those stored.
 */
function statisticsCounts(c: Composition): StatisticsCounts {
  const countOf = (list: () => Promise<readonly unknown[]>) => async () => (await list()).length;
  return {
    userSeenTimes: async () => (await c.once(userStore).list()).map((user) => user.seenAt),
    apiTokenTypes: async () => (await c.once(apiTokenStore).list()).map((token) => token.type),
    activeFeatureCount: async () => activeFeatureCountOf(await c.once(projectStore).list()),
    projectCount: countOf(() => c.once(projectStore).list()),
    contextFieldCount: countOf(() => c.once(contextFieldStore).list()),
    groupCount: countOf(() => c.once(groupStore).list()),
    environmentCount: countOf(() => c.once(environmentStore).list()),
    segmentCount: countOf(() => c.once(segmentStore).list()),
    strategyTypeCount: countOf(() => c.once(strategies).strategyTypes.list()),
  };
}
