import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { strategyTypeInputSchema } from '../../lib/strategies/schemas.js';
import { loadConfig } from '../../lib/config.js';
import { describeZodError } from '../../lib/http/map-errors.js';

describe('configuration', () => {
  it('reads comma-separated bootstrap tokens, tolerating spaces after commas', () => {
    const config = loadConfig({ TABLE_NAME: 'flags', INIT_ADMIN_API_TOKENS: '*:*.a, *:*.b,' });

    expect(config.initAdminApiTokens).toEqual(['*:*.a', '*:*.b']);
    expect(config.initClientApiTokens).toEqual([]);
    expect(config.unleashUrl).toBe('http://localhost:4242');
  });

  it('names every setting that is wrong', () => {
    expect(() => loadConfig({ UNLEASH_URL: 'not a url' })).toThrow(/TABLE_NAME.*UNLEASH_URL|UNLEASH_URL.*TABLE_NAME/);
  });
});

describe('validation messages', () => {
  it('name the path of each failing property', () => {
    const result = strategyTypeInputSchema.safeParse({ name: '', parameters: [{ name: 'a', type: 'x' }] });

    const message = describeZodError(result.error as z.ZodError);

    expect(message).toMatch(/^name: /);
    expect(message).toContain('parameters.0.type: ');
  });

  it('say when the whole body is the wrong shape', () => {
    const result = strategyTypeInputSchema.safeParse([]);

    expect(describeZodError(result.error as z.ZodError)).toMatch(/^\(body\): /);
  });
});
