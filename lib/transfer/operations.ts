import type { transferRoutes } from './routes.js';
import type { OperationsFor } from '../http/operation.js';
import type { ExportService } from './export-service.js';
import type { ImportService } from './import-service.js';

export const transferOperations = ({ transfer }: { transfer: { exports: ExportService; imports: ImportService } }): OperationsFor<typeof transferRoutes> => ({
  exportFeatures: async ({ body }) => {
    const result = await transfer.exports.export(body);
    if (!body.downloadFile) return { body: result };
    const day = new Date().toISOString().slice(0, 10);
    return { body: result, headers: { 'content-disposition': `attachment; filename="export-${day}.json"` } };
  },
  importFeatures: async ({ body, caller }) => {
    await transfer.imports.import(body, caller.tokenName);
    return {};
  },
  validateImport: async ({ body }) => ({ body: await transfer.imports.validate(body) }),
});
