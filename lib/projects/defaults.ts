import type { Environment } from '../environments/model.js';
import type { Project } from './model.js';

/**
 * What exists from the first start, as on a fresh Unleash install: project `default` and
 * the environments `development` and `production`. The seed (lib/instance/first-start.ts)
 * writes them once; after that they are ordinary data that users may change.
 */
export const DEFAULT_PROJECT = { id: 'default', name: 'Default', description: 'Default project' } as const;

export const DEFAULT_ENVIRONMENTS = [
  { name: 'development', type: 'development', sortOrder: 100 },
  { name: 'production', type: 'production', sortOrder: 200 },
] as const;

/** The environment an admin token reads on the SDK API when it names none (Unleash 7+). */
export const DEFAULT_SDK_ENVIRONMENT = 'development';

/** What a project gets for every setting its creator leaves out (and what PUT resets to). */
export const PROJECT_SETTING_DEFAULTS = {
  mode: 'open',
  defaultStickiness: 'default',
  featureLimit: null,
  featureNaming: null,
} as const satisfies Partial<Project>;

export function defaultProject(createdAt: string): Project {
  return {
    ...DEFAULT_PROJECT,
    ...PROJECT_SETTING_DEFAULTS,
    environments: DEFAULT_ENVIRONMENTS.map((environment) => environment.name),
    defaultStrategies: {},
    createdAt,
    updatedAt: null,
  };
}

export function defaultEnvironments(createdAt: string): Environment[] {
  return DEFAULT_ENVIRONMENTS.map((environment) => ({ ...environment, enabled: true, protected: false, createdAt }));
}
