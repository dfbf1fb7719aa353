import type { stateRoutes } from './routes.js';
import type { OperationsFor } from '../http/operation.js';
import type { StateExportService } from './service.js';

export const stateOperations = ({ state }: { state: StateExportService }): OperationsFor<typeof stateRoutes> => ({
  exportState: async ({ query }) => {
    const { format, download, ...parts } = query;
    const exported = await state.export(parts, format);
    const attachment: Record<string, string> = download
      ? { 'content-disposition': `attachment; filename="export-${fileStamp(new Date())}.${format === 'yaml' ? 'yml' : 'json'}"` }
      : {};
    if ('yaml' in exported) return { json: exported.yaml, headers: { 'content-type': 'text/yaml; charset=utf-8', ...attachment } };
    return { body: exported.json, headers: attachment };
  },
});

/** `YYYY-MM-DD_HH-mm-ss`, the stamp Unleash puts in export file names. */
function fileStamp(at: Date): string {
  return at.toISOString().slice(0, 19).replace('T', '_').replace(/:/g, '-');
}
