import type { Context } from 'unleash-client';

/** A context as the playground answers it: flat, every value text (Unleash's sdkFlatContextSchema). */
export type FlatContext = Record<string, string>;

/** A request's context as choices per field, before they are combined (`playgroundContexts`). */
export interface ContextChoices {
  choices: Array<[string, string[]]>;
  /** How many contexts the combinations make. */
  count: number;
  /** Top-level fields dropped because their value is not text. */
  removed: string[];
}

/**
 * The contexts a playground request stands for, as Unleash's advanced playground builds them: a
 * top-level value that is not text is dropped (and named in the answer's warnings), `properties`
 * are lifted to the top, and with `split` each comma-separated value is one choice, every
 * combination one context. Counted first, so a request past the limit is refused before any
 * context is built.
 */
export function contextChoices(given: Record<string, unknown>, split: boolean): ContextChoices {
  const removed: string[] = [];
  const choices: Array<[string, string[]]> = [];
  const add = (name: string, value: string) => choices.push([name, split ? value.split(',') : [value]]);
  for (const [name, value] of Object.entries(given)) {
    if (name === 'properties' && value !== null && typeof value === 'object') {
      for (const [property, inner] of Object.entries(value)) if (typeof inner === 'string') add(property, inner);
    } else if (typeof value === 'string') add(name, value);
    else removed.push(name);
  }
  return { choices, removed, count: choices.reduce((product, [, values]) => product * values.length, 1) };
}

/** Every combination of the choices, one context each. */
export function playgroundContexts({ choices }: ContextChoices): FlatContext[] {
  let contexts: FlatContext[] = [{}];
  for (const [name, values] of choices) contexts = contexts.flatMap((context) => values.map((value) => ({ ...context, [name]: value })));
  return contexts;
}

/** The engine's context: `currentTime` as a time; the engine reads any other field by name or from `properties`. */
export function engineContext(context: FlatContext, environment: string): Context {
  const { currentTime, ...rest } = context;
  const at = currentTime === undefined ? undefined : new Date(currentTime);
  return { environment, ...rest, ...(at && !Number.isNaN(at.getTime()) ? { currentTime: at } : {}) } as Context;
}
