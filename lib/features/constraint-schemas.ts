import * as z from 'zod';
import { CONSTRAINT_OPERATORS, type ConstraintOperator } from './model.js';
import { isoDateTime } from '../http/schemas.js';

/** Operators that compare the context value with a list (`values`); the rest read `value`. */
const LIST_OPERATORS: ReadonlySet<ConstraintOperator> = new Set([
  'IN', 'NOT_IN', 'STR_STARTS_WITH', 'STR_ENDS_WITH', 'STR_CONTAINS',
]);

/**
 * Semantic Versioning 2.0.0 exactly (the regex semver.org publishes): no leading `v`, no
 * leading zeros, optional pre-release and build parts. SDKs compare with strict semver, so a
 * looser value would never match.
 */
export const STRICT_SEMVER =
  /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-((?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?(?:\+([0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*))?$/;

/** What a single-value operator's `value` must be, with the message that names it. */
const SINGLE_VALUE_RULES: Array<{ prefix: string; accepts: (value: string) => boolean; expected: string }> = [
  { prefix: 'NUM_', accepts: (value) => value.trim() !== '' && Number.isFinite(Number(value)), expected: 'a number' },
  { prefix: 'DATE_', accepts: (value) => isoDateTime.safeParse(value).success, expected: 'an ISO 8601 date-time' },
  { prefix: 'SEMVER_', accepts: (value) => STRICT_SEMVER.test(value), expected: 'a strict semver version such as 1.2.3' },
];

/**
 * A constraint (§6.5), the one schema for strategies and segments alike. `values` is kept
 * (possibly empty) for every operator because old SDKs read it; which field an operator
 * reads decides which one is checked.
 */
export const constraintSchema = z
  .object({
    contextName: z.string().min(1).max(100),
    operator: z.enum(CONSTRAINT_OPERATORS),
    values: z.array(z.string()).default([]),
    value: z.string().optional(),
    caseInsensitive: z.boolean().default(false),
    inverted: z.boolean().default(false),
  })
  .superRefine((constraint, context) => {
    if (LIST_OPERATORS.has(constraint.operator)) {
      checkValues(constraint.operator, constraint.values, constraint.value, context);
    } else {
      checkValue(constraint.operator, constraint.value, context);
    }
  });
export type ConstraintInput = z.infer<typeof constraintSchema>;

/**
 * An empty list is kept, as Unleash keeps it (SDKs evaluate an empty IN as false and an empty
 * NOT_IN as true; the client specification has cases for both); a single `value` given instead of
 * `values` is a mistake, and refused. An empty `value` is no value: the admin UI sends `''` with
 * every new constraint.
 */
function checkValues(operator: ConstraintOperator, values: string[], value: string | undefined, context: z.RefinementCtx): void {
  if (values.length === 0 && value !== undefined && value !== '') {
    context.addIssue({ code: 'custom', path: ['values'], message: `${operator} takes its values as a list in values, not in value` });
  }
  for (const [index, value] of values.entries()) {
    if (value.length < 1 || value.length > 100) {
      context.addIssue({ code: 'custom', path: ['values', index], message: 'must be 1 to 100 characters long' });
    }
  }
}

function checkValue(operator: ConstraintOperator, value: string | undefined, context: z.RefinementCtx): void {
  const rule = SINGLE_VALUE_RULES.find((candidate) => operator.startsWith(candidate.prefix));
  if (!rule) return;
  if (value === undefined) {
    context.addIssue({ code: 'custom', path: ['value'], message: `${operator} needs a value (${rule.expected})` });
  } else if (!rule.accepts(value)) {
    context.addIssue({ code: 'custom', path: ['value'], message: `${operator} needs ${rule.expected}, got "${value}"` });
  }
}
