import type { ContextField } from './model.js';

export function toContextFieldWire(field: ContextField) {
  return {
    name: field.name,
    description: field.description,
    stickiness: field.stickiness,
    sortOrder: field.sortOrder,
    legalValues: field.legalValues,
    createdAt: field.createdAt,
  };
}
