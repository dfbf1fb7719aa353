/**
 * What exists from the first start, as on a fresh Unleash install: project `default` and
 * the environments `development` and `production`.
 */
export const DEFAULT_PROJECT = { id: 'default', name: 'Default', description: 'Default project' } as const;

export const DEFAULT_ENVIRONMENTS = [
  { name: 'development', type: 'development', sortOrder: 100 },
  { name: 'production', type: 'production', sortOrder: 200 },
] as const;

/** The environment an admin token reads on the SDK API when it names none (Unleash 7+). */
export const DEFAULT_SDK_ENVIRONMENT = 'development';
