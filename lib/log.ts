import { Logger } from '@aws-lambda-powertools/logger';

/**
 * The service's one logger: structured JSON lines (Powertools), with secrets redacted on the
 * way out. Every log call of the service goes through here, so no code path can print an
 * API token, an Authorization header or the OIDC client secret, whatever it hands over.
 */
export interface Log {
  error(message: string, attributes?: Record<string, unknown>): void;
  warn(message: string, attributes?: Record<string, unknown>): void;
  info(message: string, attributes?: Record<string, unknown>): void;
}

export const REDACTED = '[redacted]';

/** Keys whose values are secret whatever they hold (header names arrive in lower case). */
const SECRET_KEY = /authorization|cookie|secret|password|api[-_]?key|^token$|^secrets?$/i;

/**
 * An Unleash API token inside any text: `project:environment.secret`, `*:*.secret` or
 * `[]:environment.secret`. The scope before the dot stays readable; the secret does not.
 */
const TOKEN_IN_TEXT = /((?:\*|\[\]|[\w.~-]+):(?:\*|[\w~-]+)\.)[\w~-]{6,}/g;

/** Also caught when a secret arrives bare, as in `Authorization: Bearer <secret>`. */
const BEARER_IN_TEXT = /(bearer\s+)\S+/gi;

export function redact(key: string, value: unknown): unknown {
  if (key !== '' && SECRET_KEY.test(key) && value !== null && value !== undefined && value !== '') return REDACTED;
  if (typeof value === 'string') return value.replace(TOKEN_IN_TEXT, `$1${REDACTED}`).replace(BEARER_IN_TEXT, `$1${REDACTED}`);
  return value;
}

let logger: Logger | undefined;

/**
 * Built on first use rather than at import time: Powertools reads its settings (log level,
 * service name) from the environment when it is constructed.
 */
function instance(): Logger {
  logger ??= new Logger({ serviceName: 'serverless-toggles', jsonReplacerFn: redact });
  return logger;
}

export const log: Log = {
  error: (message, attributes = {}) => instance().error(message, attributes),
  warn: (message, attributes = {}) => instance().warn(message, attributes),
  info: (message, attributes = {}) => instance().info(message, attributes),
};
