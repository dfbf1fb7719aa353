export interface Environment {
  name: string;
  type: string;
  enabled: boolean;
  protected: boolean;
  sortOrder: number;
  createdAt: string;
}

/** Environments list by sort order, then name, as Unleash shows them. */
export function compareEnvironments(a: Environment, b: Environment): number {
  return a.sortOrder - b.sortOrder || a.name.localeCompare(b.name);
}
