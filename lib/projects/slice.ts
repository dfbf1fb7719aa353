import type { Slice, SliceContext } from '../slice.js';
import { DynamoEnvironmentStore } from '../environments/dynamo-store.js';
import { DynamoProjectStore } from './dynamo-store.js';
import { projectOperations } from './operations.js';
import type { ProjectPorts } from './ports.js';
import { ProjectEnvironmentService } from './project-environments.js';
import { ProjectService } from './project-service.js';
import { projectRoutes } from './routes.js';

/** Projects (E8): their settings, overview and summary, and which environments each uses with its default strategies. */
export function projectSlice({ store }: SliceContext, ports: ProjectPorts) {
  const projectStore = new DynamoProjectStore(store.db, store.tableName, store.revisions);
  const environmentStore = new DynamoEnvironmentStore(store.db, store.tableName);
  const projects = new ProjectService(projectStore, environmentStore, ports.features);
  const projectEnvironments = new ProjectEnvironmentService(projectStore, environmentStore, (name) => ports.strategyTypeExists(name));
  return {
    routes: projectRoutes,
    operations: projectOperations({ projects, projectEnvironments }, ports),
    projects,
    projectEnvironments,
  } satisfies Slice<typeof projectRoutes> & Record<string, unknown>;
}
