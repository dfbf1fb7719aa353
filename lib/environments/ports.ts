import type { Project } from '../projects/model.js';
import type { EnvironmentUse } from '../projects/project-service.js';
import type { ApiToken } from '../tokens/model.js';

/** What environments read of other resources (GET /api/admin/environments/project/{projectId}). */
export interface EnvironmentPorts {
  /** Every environment as the project uses it (NotFound for a missing project). */
  environmentUse(projectId: string): Promise<{ project: Project; uses: EnvironmentUse[] }>;
  /** Every API token, to count each environment's tokens of the project. */
  apiTokens(): Promise<ApiToken[]>;
}
