import * as z from 'zod';

/*
 * The query-string filters Unleash's admin searches take (the feature search, the event log):
 * `OPERATOR:value,value…` and whole numbers, parsed, and the equality operators matched. Shared
 * by both searches, so neither resource reads the other's search for them.
 */

/** A parsed `OPERATOR:value,value…`. */
export interface Filter<O extends string> {
  operator: O;
  values: string[];
}

type Equality = Filter<'IS' | 'IS_NOT' | 'IS_ANY_OF' | 'IS_NONE_OF'>;

/**
 * `OPERATOR:value,value…` as the admin UI's filters send it; the 400 names the parameter (the
 * key of the object schema), the operators it takes and, with `allowed`, the values.
 */
export function filter<const O extends readonly string[]>(operators: O, allowed?: readonly string[], each?: (value: string) => string | undefined) {
  const shape = `must be OPERATOR:value[,value…] with OPERATOR one of ${operators.join(', ')}`;
  return z.string().transform((text, ctx): Filter<O[number]> => {
    const match = /^([A-Z_]+):(.*)$/s.exec(text);
    const operator = match?.[1] as O[number] | undefined;
    const values = (match?.[2] ?? '').split(',').map((value) => value.trim()).filter(Boolean);
    if (!operator || !operators.includes(operator) || values.length === 0) {
      ctx.addIssue({ code: 'custom', message: shape });
      return z.NEVER;
    }
    const wrong = values.find((value) => (allowed && !allowed.includes(value)) || each?.(value) !== undefined);
    if (wrong !== undefined) {
      ctx.addIssue({ code: 'custom', message: each?.(wrong) ?? `${JSON.stringify(wrong)} is not one of ${allowed?.join(', ')}` });
      return z.NEVER;
    }
    return { operator, values };
  });
}

export const whole = (min: number, max: number) =>
  z.string().transform((text, ctx) => {
    const value = /^\d{1,15}$/.test(text) ? Number(text) : Number.NaN;
    if (!(value >= min && value <= max)) {
      ctx.addIssue({ code: 'custom', message: `must be a whole number from ${min} to ${max}` });
      return z.NEVER;
    }
    return value;
  });

/** IS and IS_ANY_OF keep what is listed, IS_NOT and IS_NONE_OF what is not; a missing value is never listed. */
export function matchesEquality(filter: Equality | undefined, value: string | undefined): boolean {
  if (!filter) return true;
  const listed = value !== undefined && filter.values.includes(value);
  return filter.operator === 'IS' || filter.operator === 'IS_ANY_OF' ? listed : !listed;
}
