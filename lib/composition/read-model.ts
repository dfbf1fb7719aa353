import { FeatureReadModel } from '../client/feature-read-model.js';
import type { Composition } from './composition.js';
import { revisionClock } from './edge.js';
import { featureSnapshots } from './feature-snapshots.js';

export type { FeatureReadModel } from '../client/feature-read-model.js';

/**
 * The admin read model of every feature (archived ones too), one per process: what search, usage
 * lists, the playground, the state export and insights read. Its cost and consistency are written
 * on FeatureReadModel (lib/client/feature-read-model.ts).
 */
export const featureReadModel = (c: Composition) => new FeatureReadModel(c.once(featureSnapshots), c.once(revisionClock));
