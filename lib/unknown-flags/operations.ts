import type { OperationsFor } from '../http/operation.js';
import type { unknownFlagRoutes } from './routes.js';
import type { UnknownFlagService } from './service.js';

export function unknownFlagOperations({ unknownFlags }: { unknownFlags: UnknownFlagService }): OperationsFor<typeof unknownFlagRoutes> {
  return {
    listUnknownFlags: async () => ({ body: { unknownFlags: await unknownFlags.list() } }),
  };
}
