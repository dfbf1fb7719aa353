import type { Feature } from '../features/model.js';
import type { Composition } from './composition.js';
import { createClientServices } from './client-services.js';

/**
 * The admin read model of every feature (archived ones too): what search, usage lists, the
 * playground, the state export and insights read instead of walking the table each. One per
 * process (through `composition.once`).
 */
export interface FeatureReadModel {
  everyFeature(): Promise<readonly Feature[]>;
}

export function featureReadModel(c: Composition): FeatureReadModel {
  const { clientFeatures } = createClientServices(c);
  return { everyFeature: () => clientFeatures.everyFeature() };
}
