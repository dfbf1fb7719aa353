export type ProjectMode = 'open' | 'protected' | 'private';

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

export interface Project {
  id: string;
  name: string;
  description: string | null;
  mode: ProjectMode;
  defaultStickiness: string;
  /** Most features (not archived) the project may hold; null means no limit. */
  featureLimit: number | null;
  featureNaming: FeatureNaming | null;
  /** The environments enabled for this project, by name. */
  environments: string[];
  defaultStrategies: Record<string, DefaultStrategy>;
  createdAt: string;
  updatedAt: string | null;
}

export interface Environment {
  name: string;
  type: string;
  enabled: boolean;
  protected: boolean;
  sortOrder: number;
  createdAt: string;
}
