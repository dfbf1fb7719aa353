import type { StrategyTypeWire } from './schemas.js';
import type { StrategyType } from './model.js';

export function toStrategyTypeWire(type: StrategyType): StrategyTypeWire {
  return {
    title: type.title,
    name: type.name,
    displayName: type.displayName,
    description: type.description,
    editable: type.editable,
    deprecated: type.deprecated,
    parameters: type.parameters,
  };
}
