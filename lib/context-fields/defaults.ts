import type { ContextField } from './model.js';

const field = (name: string, sortOrder: number, description: string, stickiness = false) => ({
  name, description, stickiness, sortOrder, legalValues: [],
});

/**
 * The context fields of a fresh install: the ones every SDK fills in itself. `sessionId` is
 * offered as custom stickiness, as in Unleash.
 */
export const DEFAULT_CONTEXT_FIELDS = [
  field('environment', 0, 'The environment the application runs in'),
  field('userId', 1, 'The id of the signed-in user'),
  field('appName', 2, 'The name of the application'),
  field('currentTime', 3, 'The time of evaluation, for date constraints'),
  field('sessionId', 4, 'The id of the user session', true),
  field('remoteAddress', 5, 'The IP address of the caller'),
] as const;

export function defaultContextFields(createdAt: string): ContextField[] {
  return DEFAULT_CONTEXT_FIELDS.map((defaults) => ({ ...defaults, legalValues: [], createdAt }));
}
