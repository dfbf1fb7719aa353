import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { constraintSchema } from '../../lib/features/constraint-schemas.js';
import { describeZodError } from '../../lib/http/map-errors.js';

const list = z.object({ constraints: z.array(constraintSchema) });

/** The 400 message the API would give for these constraints, or undefined when they pass. */
function problem(...constraints: unknown[]): string | undefined {
  const parsed = list.safeParse({ constraints });
  return parsed.success ? undefined : describeZodError(parsed.error);
}

describe('constraint schema (§6.5)', () => {
  it('fills in the defaults old SDKs rely on: values [], caseInsensitive and inverted false', () => {
    const parsed = constraintSchema.parse({ contextName: 'appName', operator: 'NUM_GT', value: '3' });

    expect(parsed).toEqual({ contextName: 'appName', operator: 'NUM_GT', value: '3', values: [], caseInsensitive: false, inverted: false });
  });

  it.each(['IN', 'NOT_IN', 'STR_STARTS_WITH', 'STR_ENDS_WITH', 'STR_CONTAINS'])('%s takes its values in values, an empty list too (as Unleash)', (operator) => {
    expect(problem({ contextName: 'userId', operator, values: ['a'] })).toBeUndefined();
    expect(problem({ contextName: 'userId', operator, values: [] })).toBeUndefined();
    expect(problem({ contextName: 'userId', operator, value: 'a' })).toMatch(/^constraints\.0\.values: /);
  });

  it('refuses list values that are empty or longer than 100 characters, naming the item', () => {
    expect(problem({ contextName: 'userId', operator: 'IN', values: ['ok', ''] })).toMatch(/^constraints\.0\.values\.1: /);
    expect(problem({ contextName: 'userId', operator: 'IN', values: ['x'.repeat(101)] })).toMatch(/^constraints\.0\.values\.0: /);
    expect(problem({ contextName: 'userId', operator: 'IN', values: ['x'.repeat(100)] })).toBeUndefined();
  });

  it.each(['NUM_EQ', 'NUM_GT', 'NUM_GTE', 'NUM_LT', 'NUM_LTE'])('%s needs a value that is a finite number', (operator) => {
    expect(problem({ contextName: 'age', operator, value: '-1.5' })).toBeUndefined();
    expect(problem({ contextName: 'age', operator, value: 'ten' })).toMatch(/^constraints\.0\.value: .*a number/);
    expect(problem({ contextName: 'age', operator, value: '' })).toMatch(/^constraints\.0\.value: /);
    expect(problem({ contextName: 'age', operator, value: 'Infinity' })).toMatch(/^constraints\.0\.value: /);
    expect(problem({ contextName: 'age', operator, values: ['1'] })).toMatch(/^constraints\.0\.value: /);
  });

  it.each(['DATE_AFTER', 'DATE_BEFORE'])('%s needs an ISO 8601 date-time', (operator) => {
    expect(problem({ contextName: 'currentTime', operator, value: '2026-01-01T00:00:00.000Z' })).toBeUndefined();
    expect(problem({ contextName: 'currentTime', operator, value: '2026-01-01T10:00:00+02:00' })).toBeUndefined();
    expect(problem({ contextName: 'currentTime', operator, value: 'next tuesday' })).toMatch(/^constraints\.0\.value: .*ISO 8601/);
  });

  it.each(['SEMVER_EQ', 'SEMVER_GT', 'SEMVER_LT'])('%s needs a strict semver version', (operator) => {
    for (const good of ['1.2.3', '0.0.0', '10.20.30-rc.1+build.5', '1.0.0-alpha']) {
      expect(problem({ contextName: 'version', operator, value: good }), good).toBeUndefined();
    }
    for (const bad of ['v1.2.3', '1.2', '01.2.3', '1.2.3-', 'latest']) {
      expect(problem({ contextName: 'version', operator, value: bad }), bad).toMatch(/^constraints\.0\.value: .*semver/);
    }
  });

  it('refuses an unknown operator and a missing contextName, naming each property', () => {
    const message = problem({ operator: 'REGEX', values: ['a'] });

    expect(message).toContain('constraints.0.contextName');
    expect(message).toContain('constraints.0.operator');
  });
});
