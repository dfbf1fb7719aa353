import { activeFeatureCountOf } from '../../projects/summaries.js';
import type { UiSupportPorts } from '../../ui-support/ports.js';
import { uiSupportSlice } from '../../ui-support/slice.js';
import type { Composition } from '../composition.js';
import { apiTokenStore } from '../edge.js';
import { groupStore, userStore } from '../session-edge.js';
import { contextFieldStore, environmentStore, featureStore, projectStore, segmentStore } from '../stores.js';
import { projectOf } from './catalog-reads.js';
import { instance } from './instance.js';
import { strategies } from './strategies.js';

/** The admin UI's supporting pages' slice, once per composition, on its ports. */
export const uiSupport = (c: Composition) => uiSupportSlice(c, uiSupportPorts(c));

/**
 * What the supporting pages read: collections counted from their own items, the flag count from
 * the projects' count shards (ADR 14), the instance's identity from the UI configuration, and
 * the strategy types from their service, which adds the built-in ones to those stored.
 */
function uiSupportPorts(c: Composition): UiSupportPorts {
  const countOf = (list: () => Promise<readonly unknown[]>) => async () => (await list()).length;
  return {
    project: (projectId) => projectOf(c, projectId),
    projectFeatures: (projectId) => c.once(featureStore).listProject(projectId),
    activeFeatureCount: async () => activeFeatureCountOf(await c.once(projectStore).list()),
    instance: async () => {
      const config = await c.once(instance).uiConfig.get();
      return { instanceId: config.versionInfo.instanceId, version: config.version, oidcEnabled: config.authenticationType === 'enterprise' };
    },
    userSeenTimes: async () => (await c.once(userStore).list()).map((user) => user.seenAt),
    apiTokenTypes: async () => (await c.once(apiTokenStore).list()).map((token) => token.type),
    projectCount: countOf(() => c.once(projectStore).list()),
    contextFieldCount: countOf(() => c.once(contextFieldStore).list()),
    groupCount: countOf(() => c.once(groupStore).list()),
    environmentCount: countOf(() => c.once(environmentStore).list()),
    segmentCount: countOf(() => c.once(segmentStore).list()),
    strategyTypeCount: countOf(() => c.once(strategies).strategyTypes.list()),
  };
}
