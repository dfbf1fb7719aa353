export interface LegalValue {
  value: string;
  description?: string;
}

export interface ContextField {
  name: string;
  description: string | null;
  /** Offered as custom stickiness when true. */
  stickiness: boolean;
  sortOrder: number;
  legalValues: LegalValue[];
  createdAt: string;
  /** Set on a project's own field (project settings → Context fields): listed with that project only. */
  project?: string | undefined;
}

/** How many flags (not archived) and projects have a strategy whose constraints test the field. */
export interface ContextFieldUsage {
  usedInFeatures: number;
  usedInProjects: number;
}
