import type { OperationsFor } from '../http/operation.js';
import type { strategyTypeRoutes } from './routes.js';
import type { StrategyTypeService } from './service.js';
import { toStrategyTypeWire } from './wire.js';

export const strategyTypeOperations = ({ strategyTypes }: { strategyTypes: StrategyTypeService }): OperationsFor<typeof strategyTypeRoutes> => ({
  listStrategyTypes: async () => ({
    body: { version: 1, strategies: (await strategyTypes.list()).map(toStrategyTypeWire) },
  }),
  getStrategyType: async ({ params }) => ({ body: toStrategyTypeWire(await strategyTypes.get(params.strategyName)) }),
  createStrategyType: async ({ body, caller }) => {
    const created = await strategyTypes.create(body, caller.tokenName);
    return { body: toStrategyTypeWire(created), headers: { location: `strategies/${created.name}` } };
  },
  updateStrategyType: async ({ params, body, caller }) => ({
    body: toStrategyTypeWire(await strategyTypes.update(params.strategyName, body, caller.tokenName)),
  }),
  deleteStrategyType: async ({ params, caller }) => {
    await strategyTypes.delete(params.strategyName, caller.tokenName);
    return {};
  },
  deprecateStrategyType: async ({ params, caller }) => {
    await strategyTypes.setDeprecated(params.strategyName, true, caller.tokenName);
    return {};
  },
  reactivateStrategyType: async ({ params, caller }) => {
    await strategyTypes.setDeprecated(params.strategyName, false, caller.tokenName);
    return {};
  },
});
