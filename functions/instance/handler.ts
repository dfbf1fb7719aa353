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
import { personalDashboard } from '../../lib/composition/slices/personal-dashboard.js';
import { projectStatus } from '../../lib/composition/slices/project-status.js';
import { unknownFlags } from '../../lib/composition/slices/unknown-flags.js';

/** The instance's own endpoints, its description, insights, the event log, applications and the unknown flags SDKs report, the playground, the personal dashboard, project status and integrations (their configuration; delivering them is functions/integrations/). */
export const definition: FunctionDefinition = {
  group: 'instance',
  compose: (c) => ({
    instance: c.once(instance),
    docs: c.once(docs),
    insights: c.once(insights),
    events: c.once(events),
    applications: c.once(applications),
    unknownFlags: c.once(unknownFlags),
    // The one admin function that loads the evaluation engine (unleash-client).
    playground: c.once(playground),
    personalDashboard: c.once(personalDashboard),
    projectStatus: c.once(projectStatus),
    maintenance: c.once(maintenanceMode),
    integrations: c.once(integrations),
  }),
  admin: adminEdge,
};

export const handler = functionHandler(definition);
