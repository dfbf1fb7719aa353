import type { OperationsFor } from '../http/operation.js';
import type { strategyTypeRoutes } from './routes.js';
import type { StrategyTypeService } from './service.js';
import { toStrategyTypeWire } from './wire.js';

export const strategyTypeOperations = ({ strategyTypes }: { strategyTypes: StrategyTypeService }): OperationsFor<typeof strategyTypeRoutes> => ({
  listStrategyTypes: async () => ({
    body: { version: 1, strategies: (await strategyTypes.list()).map(toStrategyTypeWire) },
  }),
  getStrategyType: async ({ params }) => ({ body: toStrategyTypeWire(await strategyTypes.get(params.strategyName)) }),
  createStrategyType: async ({ body }) => {
    const created = await strategyTypes.create(body);
    return { body: toStrategyTypeWire(created), headers: { location: `strategies/${created.name}` } };
  },
  updateStrategyType: async ({ params, body }) => ({
    body: toStrategyTypeWire(await strategyTypes.update(params.strategyName, body)),
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
