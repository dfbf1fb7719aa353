import type { Context } from 'unleash-client';
import { ValidationFailed } from '../errors.js';

/** A context as the playground answers it: flat, every value text (Unleash's sdkFlatContextSchema). */
export type FlatContext = Record<string, string>;

/**
 * The contexts a playground request stands for, as Unleash's advanced playground builds them: a
 * top-level value that is not text is dropped (and named in the answer's warnings), `properties`
 * are lifted to the top, and with `split` each comma-separated value is one choice, every
 * combination one context. `limit` is checked on the count before any context is built.
 */
export function playgroundContexts(given: Record<string, unknown>, options: { split: boolean; limit: number; per: number }): {
  contexts: FlatContext[];
  removed: string[];
} {
  const removed: string[] = [];
  const choices: Array<[string, string[]]> = [];
  const add = (name: string, value: string) => choices.push([name, options.split ? value.split(',') : [value]]);
  for (const [name, value] of Object.entries(given)) {
    if (name === 'properties' && value !== null && typeof value === 'object') {
      for (const [property, inner] of Object.entries(value)) if (typeof inner === 'string') add(property, inner);
    } else if (typeof value === 'string') add(name, value);
    else removed.push(name);
  }
  const count = choices.reduce((product, [, values]) => product * values.length, 1);
  if (count * options.per > options.limit) {
    throw new ValidationFailed(
      `context: evaluating ${count * options.per} flag, environment and context combinations is more than the ${options.limit} allowed; ` +
        `choose fewer environments, projects or comma-separated context values (${count} contexts)`,
    );
  }
  let contexts: FlatContext[] = [{}];
  for (const [name, values] of choices) contexts = contexts.flatMap((context) => values.map((value) => ({ ...context, [name]: value })));
  return { contexts, removed };
}

/** The engine's context: `currentTime` as a time; the engine reads any other field by name or from `properties`. */
export function engineContext(context: FlatContext, environment: string): Context {
  const { currentTime, ...rest } = context;
  const at = currentTime === undefined ? undefined : new Date(currentTime);
  return { environment, ...rest, ...(at && !Number.isNaN(at.getTime()) ? { currentTime: at } : {}) } as Context;
}
