import type { OperationsFor } from '../http/operation.js';
import type { eventRoutes } from './routes.js';
import type { EventSearchService } from './service.js';

export const eventOperations = ({ eventSearch }: { eventSearch: EventSearchService }): OperationsFor<typeof eventRoutes> => ({
  searchEvents: async ({ query }) => ({ body: await eventSearch.search(query) }),
  getFeatureEvents: async ({ params }) => {
    const { events, total } = await eventSearch.ofFeature(params.featureName);
    return { body: { version: 1, toggleName: params.featureName, events, totalEvents: total } };
  },
  getEventCreators: async () => ({ body: await eventSearch.creators() }),
});
