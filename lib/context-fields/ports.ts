import type { EveryFeature } from '../features/search-service.js';

/** What context fields read of other resources. */
export interface ContextFieldPorts {
  /** Every feature as the admin read model holds them: the strategies whose constraints test a field. */
  everyFeature: EveryFeature;
  /** Answers NotFound when no project has the id (GET /api/admin/projects/{projectId}/context). */
  checkProjectExists(id: string): Promise<void>;
}
