import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildBundle } from '../../local/bench/bundles.js';

/**
 * The SDK path's function stays small (issue 6: ≤ 250 KB minified), built with the stack's own
 * esbuild settings. Its cold-start time is measured by `npm run bench`, not here.
 */
describe('the client function bundle', () => {
  it('stays under 250 KB minified, with the AWS SDK left to the runtime and no admin API inside', async () => {
    const bundle = await buildBundle(resolve(import.meta.dirname, '..', '..'), 'client');

    expect(bundle.bytes).toBeLessThanOrEqual(250 * 1024);
    expect(bundle.inputs.some((input) => input.includes('node_modules/@aws-sdk/'))).toBe(false);
    expect(bundle.inputs.filter((input) => /lib\/(features|projects|users|groups|state|transfer)\/.*service/.test(input))).toEqual([]);
    expect(bundle.inputs.some((input) => input.includes('lib/route-table'))).toBe(false);
  });
});
