export const PROJECT_MODES = ['open', 'protected', 'private'] as const;
export type ProjectMode = (typeof PROJECT_MODES)[number];

export interface FeatureNaming {
  pattern: string | null;
  example: string | null;
  description: string | null;
}

/** The strategy `/on` adds to an environment that has none (Unleash's project default strategy). */
export interface DefaultStrategy {
  name: string;
  title?: string | null;
  constraints: import('../features/model.js').Constraint[];
  parameters: Record<string, string>;
}

/** What a project's owner sets with create and PUT. */
export interface ProjectSettings {
  name: string;
  description: string | null;
  mode: ProjectMode;
  defaultStickiness: string;
  /** Most features (not archived) the project may hold; null means no limit. */
  featureLimit: number | null;
  featureNaming: FeatureNaming | null;
}

export interface Project extends ProjectSettings {
  id: string;
  /** The environments enabled for this project, by name. */
  environments: string[];
  defaultStrategies: Record<string, DefaultStrategy>;
  createdAt: string;
  updatedAt: string | null;
}

export interface ProjectSummary extends Project {
  featureCount: number;
  health: number;
}
