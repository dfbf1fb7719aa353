import { admin, defineRoutes } from '../http/route.js';
import { eventCreatorsSchema, eventSearchQuerySchema, eventSearchResponseSchema, featureEventsSchema } from './schemas.js';

/** The event log: what the admin UI's global, project and flag event logs read. */
export const eventRoutes = defineRoutes('instance', {
  searchEvents: {
    method: 'GET', path: '/api/admin/search/events', access: admin('READ_FEATURE'), status: 200,
    summary: 'Search the event log: filters (IS:value), a date window (from, to; at most the 12 months up to to), newest first, a page (offset, limit)',
    query: eventSearchQuerySchema, response: eventSearchResponseSchema,
  },
  getFeatureEvents: {
    method: 'GET', path: '/api/admin/events/{featureName}', access: admin('READ_FEATURE'), status: 200, deprecated: true,
    summary: "A feature's newest 50 events; use /api/admin/search/events?feature=IS:<name>",
    response: featureEventsSchema,
  },
  getEventCreators: {
    method: 'GET', path: '/api/admin/event-creators', access: admin('READ_FEATURE'), status: 200,
    summary: "Who made the last 12 months' events (people and API tokens), each with a number the event search's createdBy filter takes as it takes the name",
    response: eventCreatorsSchema,
  },
});
