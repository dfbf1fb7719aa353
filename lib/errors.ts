/**
 * The closed set of domain errors. They carry no HTTP knowledge: `lib/http/error-table.ts`
 * is the one place that maps each kind to a status and an interface error name.
 */
export type DomainErrorKind =
  | 'validation'
  | 'unauthenticated'
  | 'forbidden'
  | 'not-found'
  | 'conflict'
  | 'payload-too-large'
  | 'exceeds-limit'
  | 'unsupported-media-type'
  | 'rate-limited'
  | 'unavailable'
  | 'maintenance';

export abstract class DomainError extends Error {
  abstract readonly kind: DomainErrorKind;
}

/** The request's data breaks a rule; the message names the property. */
export class ValidationFailed extends DomainError {
  readonly kind = 'validation';
}

/**
 * How to log in, as a 401 tells the admin UI (Unleash's authentication details): the password
 * form's `path`, whether it is hidden, and other ways in (single sign-on). Built by
 * lib/auth/login-methods.ts; declared here so the HTTP edge that answers it needs no resource.
 */
export interface LoginDetails {
  type: 'password';
  path: string;
  defaultHidden: boolean;
  options?: readonly { type: string; message: string; path: string }[];
}

/**
 * No credentials, or credentials nobody issued. `loginPath`, when given, is where people log in:
 * the answer names it with the login type, as Unleash's does, and the UI shows its login form.
 */
export class AuthenticationRequired extends DomainError {
  readonly kind = 'unauthenticated';
  constructor(
    message: string,
    readonly loginPath?: string,
    /** The ways to log in, when known (lib/auth/login-methods.ts): the UI offers single sign-on from them. */
    readonly loginDetails?: LoginDetails,
  ) {
    super(message);
  }
}

/** Too many attempts (logins after repeated failures); the same request works after `retryAfterSeconds`. */
export class RateLimited extends DomainError {
  readonly kind = 'rate-limited';
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(message);
  }
}

/** Valid credentials that lack the permission the operation needs. */
export class PermissionDenied extends DomainError {
  readonly kind = 'forbidden';
  constructor(
    readonly permission: string,
    message = `You don't have the required permission: ${permission}`,
  ) {
    super(message);
  }
}

export class NotFound extends DomainError {
  readonly kind = 'not-found';
}

/** The change conflicts with what is stored: a taken name, or a concurrent edit. */
export class Conflict extends DomainError {
  readonly kind = 'conflict';
}

export class UnsupportedMediaType extends DomainError {
  readonly kind = 'unsupported-media-type';
}

/** The request body is larger than the route accepts. */
export class PayloadTooLarge extends DomainError {
  readonly kind = 'payload-too-large';
}

/**
 * The answer asked for is larger than the service can send (Lambda's 6 MB): the same request
 * will keep failing, so the caller must ask for less (a page) or in a smaller form (gzip).
 */
export class ExceedsLimit extends DomainError {
  readonly kind = 'exceeds-limit';
}

/** The store cannot be reached or is throttling; the same request may work a moment later. */
export class ServiceUnavailable extends DomainError {
  readonly kind = 'unavailable';
}

/**
 * An administrator put the service in maintenance mode: changes are refused until they turn it
 * off (lib/maintenance/). Not "try again in a moment" as `ServiceUnavailable` is: no Retry-After.
 */
export class MaintenanceMode extends DomainError {
  readonly kind = 'maintenance';
}
