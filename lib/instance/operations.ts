import { NotFound } from '../errors.js';
import { notAvailable } from '../http/map-errors.js';
import type { OperationsFor } from '../http/operation.js';
import { log } from '../log.js';
import type { InstancePorts } from './ports.js';
import type { instanceRoutes } from './routes.js';
import { instanceStatistics } from './statistics.js';
import type { UiConfigService } from './ui-config.js';

export const instanceOperations = (
  { uiConfig }: { uiConfig: UiConfigService }, { statistics }: Pick<InstancePorts, 'statistics'>, now: () => Date = () => new Date(),
): OperationsFor<typeof instanceRoutes> => ({
  health: async () => ({ body: { health: 'GOOD' } }),
  getUiConfig: async () => ({ body: await uiConfig.get() }),
  getInstanceStatistics: async () => {
    const config = await uiConfig.get();
    const identity = { instanceId: config.versionInfo.instanceId, version: config.version, oidcEnabled: config.authenticationType === 'enterprise' };
    return { body: await instanceStatistics(statistics, identity, now()) };
  },
  getTelemetrySettings: async () => ({ body: uiConfig.telemetry() }),
  recordUiError: async ({ caller, body }) => {
    log.warn('The admin UI met an error', { caller: caller.tokenName, message: body.errorMessage, stack: body.errorStack });
    return {};
  },
  unknownApiPath: async ({ params }) => {
    throw new NotFound(notAvailable(`/api/${params.proxy}`));
  },
});
