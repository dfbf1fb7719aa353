import type { DomainErrorKind } from '../errors.js';

/**
 * The one map from domain errors to the interface's statuses and error names
 * (`ContentTypeerror` is spelled as the interface spells it).
 */
export const ERROR_TABLE: Record<DomainErrorKind, { status: number; name: string }> = {
  validation: { status: 400, name: 'ValidationError' },
  unauthenticated: { status: 401, name: 'AuthenticationRequired' },
  forbidden: { status: 403, name: 'NoAccessError' },
  'not-found': { status: 404, name: 'NotFoundError' },
  conflict: { status: 409, name: 'NameExistsError' },
  // The interface names no error for these two; the names are HTTP's own reason phrases.
  'payload-too-large': { status: 413, name: 'ContentTooLarge' },
  // Unleash's own name and status for a limit reached (its ExceedsLimitError is a 400): the
  // request as made will never succeed, so a 4xx, which clients do not retry (a 5xx invites it).
  'exceeds-limit': { status: 400, name: 'ExceedsLimitError' },
  'unsupported-media-type': { status: 415, name: 'ContentTypeerror' },
  // Unleash answers repeated logins with 429 (its login rate limit); RateLimitError is its name for it.
  'rate-limited': { status: 429, name: 'RateLimitError' },
  unavailable: { status: 503, name: 'ServiceUnavailable' },
  // Unleash answers a change in maintenance mode 503 with its message alone; the name is this service's.
  maintenance: { status: 503, name: 'MaintenanceModeError' },
};

export const INTERNAL_ERROR = { status: 500, name: 'InternalError' } as const;
