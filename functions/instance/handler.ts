import { functionHandler, type FunctionDefinition } from '../../lib/composition/function-handler.js';
import { adminEdge } from '../../lib/composition/session-edge.js';
import { applications } from '../../lib/composition/slices/applications.js';
import { docs } from '../../lib/composition/slices/docs.js';
import { events } from '../../lib/composition/slices/events.js';
import { insights } from '../../lib/composition/slices/insights.js';
import { integrations } from '../../lib/composition/slices/integrations.js';
import { instance } from '../../lib/composition/slices/instance.js';
import { maintenanceMode } from '../../lib/composition/slices/maintenance.js';
import { playground } from '../../lib/composition/slices/playground.js';
import { uiSupport } from '../../lib/composition/slices/ui-support.js';

/** The instance's own endpoints, its description, insights, the event log, applications, the playground, the admin UI's support and integrations (their configuration; delivering them is functions/integrations/). */
export const definition: FunctionDefinition = {
  group: 'instance',
  compose: (c) => ({
    instance: c.once(instance),
    docs: c.once(docs),
    insights: c.once(insights),
    events: c.once(events),
    applications: c.once(applications),
    // The one admin function that loads the evaluation engine (unleash-client).
    playground: c.once(playground),
    uiSupport: c.once(uiSupport),
    maintenance: c.once(maintenanceMode),
    integrations: c.once(integrations),
  }),
  admin: adminEdge,
};

export const handler = functionHandler(definition);
