import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { ValidationFailed } from '../errors.js';

type Path = Array<string | number>;

/**
 * A string with a lone UTF-16 surrogate (a half without its partner): text that no UTF-8
 * store, hash or URL encoder can take (`encodeURIComponent` throws on it, DynamoDB refuses it).
 * JSON can spell one (`"\ud800"`), raw bytes cannot: the UTF-8 decoder has already replaced
 * invalid bytes by U+FFFD.
 */
const isIllFormed = (text: string): boolean => !text.isWellFormed();

/** A node of the walk; its path is rebuilt from the parent links only when something is found. */
interface Visit {
  value: unknown;
  key: string | number | undefined;
  parent: Visit | undefined;
}

function pathOf(visit: Visit): Path {
  const path: Path = [];
  for (let at: Visit | undefined = visit; at?.parent; at = at.parent) path.push(at.key as string | number);
  return path.reverse();
}

/**
 * Where the first string of a parsed JSON value that is not well-formed Unicode sits: the path
 * of the value, or of the object holding the key, with whether it is a key. Walked with a
 * stack, not recursion, because a body may nest as deep as its size allows, and each node links
 * to its parent instead of copying its path, so the walk stays linear in the body's size.
 */
export function illFormedIn(value: unknown): { path: Path; inKey: boolean } | undefined {
  const stack: Visit[] = [{ value, key: undefined, parent: undefined }];
  for (let visit = stack.pop(); visit; visit = stack.pop()) {
    const node = visit.value;
    if (typeof node === 'string') {
      if (isIllFormed(node)) return { path: pathOf(visit), inKey: false };
    } else if (Array.isArray(node)) {
      for (let index = node.length - 1; index >= 0; index -= 1) stack.push({ value: node[index], key: index, parent: visit });
    } else if (node !== null && typeof node === 'object') {
      const entries = Object.entries(node);
      if (entries.some(([key]) => isIllFormed(key))) return { path: pathOf(visit), inKey: true };
      for (let index = entries.length - 1; index >= 0; index -= 1) {
        const [key, child] = entries[index] as [string, unknown];
        stack.push({ value: child, key, parent: visit });
      }
    }
  }
  return undefined;
}

const REASON = 'must be well-formed Unicode text (it holds a lone UTF-16 surrogate)';

/**
 * Refuses a request whose path parameters, query string or parsed JSON body hold a string that
 * is not well-formed Unicode, with a 400 naming where, before any schema or store sees it.
 * Names follow the schema messages: `featureName`, `namePrefix`, `0.value.name`, `(body)`.
 */
export function refuseIllFormedText(event: APIGatewayProxyEventV2, body: unknown): void {
  // Every request passes here, most with neither (the SDK poll): nothing is allocated for them.
  if (event.pathParameters) refuseIllFormedParameters(event.pathParameters);
  if (event.queryStringParameters) refuseIllFormedParameters(event.queryStringParameters);
  if (body === undefined) return;
  const found = illFormedIn(body);
  if (!found) return;
  const where = found.path.length > 0 ? shortened(found.path).join('.') : '(body)';
  throw new ValidationFailed(found.inKey ? `${where}: a property name ${REASON}` : `${where}: ${REASON}`);
}

function refuseIllFormedParameters(parameters: Record<string, string | undefined>): void {
  for (const [name, value] of Object.entries(parameters)) {
    if (isIllFormed(name) || (value !== undefined && isIllFormed(value))) {
      throw new ValidationFailed(`${isIllFormed(name) ? '(parameter name)' : name}: ${REASON}`);
    }
  }
}

/** A deeply nested place is named by its ends, so the message stays small whatever the body. */
const shortened = (path: Path): Path => (path.length > 12 ? [...path.slice(0, 6), '…', ...path.slice(-5)] : path);

/**
 * The SDK reporting routes never refuse (the Node SDK stops reporting after a 400), so there
 * a lone surrogate becomes U+FFFD, as an invalid UTF-8 byte already does when the body is read.
 * The freshly parsed body is fixed in place, with a stack for the same reason as above.
 */
export function toWellFormedJson(value: unknown): unknown {
  if (!illFormedIn(value)) return value;
  if (typeof value === 'string') return fix(value);
  const stack = [value as Record<string, unknown>];
  for (let node = stack.pop(); node; node = stack.pop()) {
    for (const [key, child] of Object.entries(node)) {
      const fixedKey = fix(key);
      if (fixedKey !== key) delete node[key];
      // defineProperty, not assignment: a parsed `__proto__` key must stay a plain property.
      Object.defineProperty(node, fixedKey, {
        value: typeof child === 'string' ? fix(child) : child, enumerable: true, writable: true, configurable: true,
      });
      if (child !== null && typeof child === 'object') stack.push(child as Record<string, unknown>);
    }
  }
  return value;
}

const fix = (text: string): string => text.toWellFormed();
