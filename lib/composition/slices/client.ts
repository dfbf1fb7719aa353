import { clientSlice } from '../../client/slice.js';
import type { Composition } from '../composition.js';
import { revisionClock } from '../edge.js';
import { featureSnapshots } from '../feature-snapshots.js';
import { usageQueue } from '../metrics-services.js';

/** The SDK API's slice, once per composition: the process's feature snapshot, revision clock and usage queue. */
export const clients = (c: Composition) => clientSlice(c, {
  snapshots: c.once(featureSnapshots),
  revision: c.once(revisionClock),
  usageQueue: c.once(usageQueue),
});
