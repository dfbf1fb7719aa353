import type { Context } from 'unleash-client';
import { CONTEXT_LIMITS } from '../frontend/context.js';
import { OfrepRefusal } from './errors.js';

/** OpenFeature attributes that are Unleash context fields of the same name. */
const NAMED_FIELDS = ['sessionId', 'remoteAddress', 'appName'] as const;

/**
 * An OFREP request's evaluation context as the Unleash context the evaluator reads:
 * `targetingKey` is `userId`; `sessionId`, `remoteAddress`, `appName` and `currentTime` keep
 * their names; every other attribute is a custom property (numbers and booleans as their text,
 * as Unleash compares text). The environment is always the token's, whatever the context says,
 * and `remoteAddress` defaults to the caller's address, as on the Frontend API. An attribute
 * that is an object or an array has no Unleash meaning and is refused, as is a `targetingKey`
 * that is not text, or empty; nulls are left out, as OpenFeature leaves out unset attributes.
 */
export function unleashContext(given: unknown, defaults: { environment: string; remoteAddress: string | undefined }): Context {
  const attributes = attributesOf(given);
  const context: Context = { environment: defaults.environment };
  const properties: Record<string, string> = {};
  for (const [name, value] of Object.entries(attributes)) {
    if (value === null || value === undefined || name === 'environment') continue;
    if (name === 'targetingKey') context.userId = targetingKeyOf(value);
    else if (name === 'currentTime') context.currentTime = timeOf(value);
    else if ((NAMED_FIELDS as readonly string[]).includes(name)) context[name as (typeof NAMED_FIELDS)[number]] = textOf(name, value);
    else properties[name] = textOf(name, value);
  }
  const names = Object.keys(properties);
  if (names.length > CONTEXT_LIMITS.properties) {
    throw new OfrepRefusal('INVALID_CONTEXT', `The context has ${names.length} custom attributes; at most ${CONTEXT_LIMITS.properties} are evaluated.`);
  }
  const long = names.find((name) => name.length > CONTEXT_LIMITS.nameLength);
  if (long !== undefined) {
    throw new OfrepRefusal('INVALID_CONTEXT', `An attribute name is at most ${CONTEXT_LIMITS.nameLength} characters (got ${long.length}).`);
  }
  if (names.length > 0) context.properties = properties;
  context.remoteAddress ??= defaults.remoteAddress;
  return context;
}

/** The request body's `context`: an object, or nothing (an empty context). */
function attributesOf(body: unknown): Record<string, unknown> {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new OfrepRefusal('PARSE_ERROR', 'The request body must be a JSON object with the evaluation context under "context".');
  }
  const context = (body as { context?: unknown }).context;
  if (context === undefined || context === null) return {};
  if (typeof context !== 'object' || Array.isArray(context)) {
    throw new OfrepRefusal('INVALID_CONTEXT', 'The evaluation context must be a JSON object of attributes.');
  }
  return context as Record<string, unknown>;
}

function targetingKeyOf(value: unknown): string {
  if (typeof value !== 'string') throw new OfrepRefusal('INVALID_CONTEXT', 'The targetingKey must be a string.');
  if (value === '') throw new OfrepRefusal('TARGETING_KEY_MISSING', 'The targetingKey is empty; leave it out for an anonymous context.');
  return checkedLength('targetingKey', value);
}

/** `currentTime` as a date: date constraints are then evaluated at that time, as the SDKs do. */
function timeOf(value: unknown): Date {
  const text = textOf('currentTime', value);
  const time = new Date(text);
  if (Number.isNaN(time.getTime())) throw new OfrepRefusal('INVALID_CONTEXT', `The currentTime "${text}" is not a date (ISO 8601).`);
  return time;
}

function textOf(name: string, value: unknown): string {
  if (typeof value === 'string') return checkedLength(name, value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  throw new OfrepRefusal('INVALID_CONTEXT', `The attribute "${name}" is ${Array.isArray(value) ? 'an array' : 'an object'}; Unleash evaluates text, numbers and booleans only.`);
}

function checkedLength(name: string, text: string): string {
  if (text.length > CONTEXT_LIMITS.valueLength) {
    throw new OfrepRefusal('INVALID_CONTEXT', `The attribute "${name}" is at most ${CONTEXT_LIMITS.valueLength} characters (got ${text.length}).`);
  }
  return text;
}
