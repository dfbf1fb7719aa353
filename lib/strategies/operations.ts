import type { strategyTypeRoutes } from './routes.js';
import type { StrategyTypeWire } from '../strategies/schemas.js';
import type { OperationsFor } from '../http/operation.js';
import type { Services } from '../composition/services.js';
import type { StrategyType } from './model.js';

export const strategyTypeOperations = ({ strategyTypes }: Services): OperationsFor<typeof strategyTypeRoutes> => ({
  listStrategyTypes: async () => ({
    body: { version: 1, strategies: (await strategyTypes.list()).map(toWire) },
  }),
  getStrategyType: async ({ params }) => ({ body: toWire(await strategyTypes.get(params.strategyName)) }),
  createStrategyType: async ({ body }) => {
    const created = await strategyTypes.create(body);
    return { body: toWire(created), headers: { location: `strategies/${created.name}` } };
  },
  updateStrategyType: async ({ params, body }) => ({
    body: toWire(await strategyTypes.update(params.strategyName, body)),
  }),
  deleteStrategyType: async ({ params }) => {
    await strategyTypes.delete(params.strategyName);
    return {};
  },
  deprecateStrategyType: async ({ params }) => {
    await strategyTypes.setDeprecated(params.strategyName, true);
    return {};
  },
  reactivateStrategyType: async ({ params }) => {
    await strategyTypes.setDeprecated(params.strategyName, false);
    return {};
  },
});

function toWire(type: StrategyType): StrategyTypeWire {
  return {
    title: type.title,
    name: type.name,
    displayName: type.displayName,
    description: type.description,
    editable: type.editable,
    deprecated: type.deprecated,
    parameters: type.parameters,
  };
}
