import { strategyTypeNamesOf } from '../../features/model.js';
import type { StrategyPorts } from '../../strategies/ports.js';
import { strategySlice } from '../../strategies/slice.js';
import type { Composition } from '../composition.js';
import { featureStore } from '../stores.js';

/** The strategy types' slice, once per composition, on its ports. */
export const strategies = (c: Composition) => strategySlice(c, strategyPorts(c));

/** What strategy types read of features: which use a type, from every feature (archived ones too). */
function strategyPorts(c: Composition): StrategyPorts {
  return {
    featuresUsing: async (name) => (await c.once(featureStore).listAll())
      .filter((feature) => strategyTypeNamesOf(feature).has(name))
      .map(({ name: featureName, project, archived }) => ({ name: featureName, project, archived })),
  };
}
