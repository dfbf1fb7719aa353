import type { ContextField, ContextFieldUsage } from './model.js';

export function toContextFieldWire(field: ContextField) {
  return {
    name: field.name,
    description: field.description,
    stickiness: field.stickiness,
    sortOrder: field.sortOrder,
    legalValues: field.legalValues,
    createdAt: field.createdAt,
    ...(field.project === undefined ? {} : { project: field.project }),
  };
}

const UNUSED: ContextFieldUsage = { usedInFeatures: 0, usedInProjects: 0 };

/** A field of a list, with its usage counts. */
export function toContextFieldListItemWire(field: ContextField, usage: ReadonlyMap<string, ContextFieldUsage>) {
  const { usedInFeatures, usedInProjects } = usage.get(field.name) ?? UNUSED;
  return { ...toContextFieldWire(field), usedInFeatures, usedInProjects };
}
