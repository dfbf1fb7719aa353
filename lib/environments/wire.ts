import type { Environment } from './model.js';
import type { EnvironmentWire } from './schemas.js';

export function toEnvironmentWire(environment: Environment): EnvironmentWire {
  return {
    name: environment.name,
    type: environment.type,
    enabled: environment.enabled,
    protected: environment.protected,
    sortOrder: environment.sortOrder,
    createdAt: environment.createdAt,
  };
}
