import type { Context } from 'unleash-client';
import { ValidationFailed } from '../errors.js';

/** The context fields Unleash's Frontend API reads by name; anything else is a custom property. */
const NAMED_FIELDS = ['userId', 'sessionId', 'remoteAddress', 'appName'] as const;

/** Bounds on what one request may carry: a context is a few ids, not a document. */
export const CONTEXT_LIMITS = { properties: 100, nameLength: 100, valueLength: 1_000 } as const;

/**
 * The evaluation context of a Frontend API request, as Unleash builds it: from the query string
 * (GET: `userId=…&properties[region]=…`, as API Gateway hands over the raw keys) or from the body's
 * `context` (POST). The environment is always the token's, whatever the request says; an unknown
 * top-level field (`currentTime` among them, so date constraints use the server's clock) becomes a
 * property; `remoteAddress` defaults to the caller's address and `sessionId` to a random one, so
 * gradual rollouts on the default stickiness spread callers without one.
 */
export function frontendContext(
  given: Record<string, unknown>,
  defaults: { environment: string; remoteAddress: string | undefined },
): Context {
  const context: Context = { environment: defaults.environment };
  const properties: Record<string, string> = {};
  for (const [rawName, rawValue] of Object.entries(given)) {
    const bracketed = /^properties\[(.+)\]$/.exec(rawName);
    if (rawName === 'properties' && rawValue !== null && typeof rawValue === 'object') {
      for (const [name, value] of Object.entries(rawValue)) properties[name] = textOf(`properties.${name}`, value);
    } else if (bracketed) {
      properties[bracketed[1] as string] = textOf(`properties.${bracketed[1] as string}`, rawValue);
    } else if ((NAMED_FIELDS as readonly string[]).includes(rawName)) {
      context[rawName as (typeof NAMED_FIELDS)[number]] = textOf(rawName, rawValue);
    } else if (rawName !== 'environment') {
      properties[rawName] = textOf(rawName, rawValue);
    }
  }
  const names = Object.keys(properties);
  if (names.length > CONTEXT_LIMITS.properties) {
    throw new ValidationFailed(`context.properties: at most ${CONTEXT_LIMITS.properties} properties (got ${names.length})`);
  }
  const long = names.find((name) => name.length > CONTEXT_LIMITS.nameLength);
  if (long !== undefined) throw new ValidationFailed(`context.properties: a property name is at most ${CONTEXT_LIMITS.nameLength} characters`);
  if (names.length > 0) context.properties = properties;
  context.remoteAddress ??= defaults.remoteAddress;
  context.sessionId ??= String(Math.floor(Math.random() * 1_000_000_000));
  return context;
}

/** A context value as the SDKs send it: text (numbers and booleans are accepted and kept as text). */
function textOf(field: string, value: unknown): string {
  if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') {
    throw new ValidationFailed(`context.${field.replace(/^context\./, '')}: must be a string`);
  }
  const text = String(value);
  if (text.length > CONTEXT_LIMITS.valueLength) {
    throw new ValidationFailed(`context.${field}: at most ${CONTEXT_LIMITS.valueLength} characters (got ${text.length})`);
  }
  return text;
}

