import { DynamoSnapshotStore } from '../../insights/dynamo-store.js';
import type { PersonalDashboardPorts } from '../../personal-dashboard/ports.js';
import { personalDashboardSlice } from '../../personal-dashboard/slice.js';
import type { Composition } from '../composition.js';
import { featureReadModel } from '../read-model.js';
import { userStore } from '../session-edge.js';
import { eventStore, metricsStore, projectStore } from '../stores.js';
import { favourites } from './favourites.js';

/** The personal dashboard's slice, once per composition, on its ports. */
export const personalDashboard = (c: Composition) => personalDashboardSlice(c, personalDashboardPorts(c));

/**
 * What the dashboard reads: a project by id, every flag from the admin read model (a warm
 * container reads only what changed; the project cards take their project's flags from it), the
 * person's stars, the users, the newest events, SDKs' last-seen times and the daily insight snapshots.
 */
function personalDashboardPorts(c: Composition): PersonalDashboardPorts {
  return {
    project: (projectId) => c.once(projectStore).get(projectId),
    everyFeature: () => c.once(featureReadModel).everyFeature(),
    favouritesOf: (userId) => c.once(favourites).favourites.ofUser(userId),
    users: () => c.once(userStore).list(),
    newestEvents: (from, to) => c.once(eventStore).newestFirst(from, to),
    lastSeen: c.once(metricsStore),
    projectHealthHistory: async (projectId) => (await new DynamoSnapshotStore(c.store.db, c.store.tableName).list())
      .flatMap((snapshot) => snapshot.projects.filter((figures) => figures.project === projectId).map((figures) => figures.health))
      .reverse(),
  };
}
