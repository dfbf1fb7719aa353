import type { Slice, SliceContext } from '../slice.js';
import { ExportService } from './export-service.js';
import { ImportService } from './import-service.js';
import { transferOperations } from './operations.js';
import type { TransferPorts } from './ports.js';
import { transferRoutes } from './routes.js';

/** Export and import of features with what they name (environments, context fields, segments, tag types). */
export function transferSlice(_context: SliceContext, { catalog, features, featureWrites }: TransferPorts) {
  const transfer = { exports: new ExportService(features, catalog), imports: new ImportService(featureWrites, catalog) };
  return {
    routes: transferRoutes,
    operations: transferOperations({ transfer }),
    transfer,
  } satisfies Slice<typeof transferRoutes> & Record<string, unknown>;
}
