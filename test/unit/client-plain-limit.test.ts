import { describe, expect, it } from 'vitest';
import { clientOperations } from '../../lib/client/operations.js';
import { ExceedsLimit } from '../../lib/errors.js';

// A poller without gzip whose payload is over Lambda's 6 MB is refused from the size the gzip
// trailer gives, before the 6 MB of text is ever made (it cost ~43 ms of CPU per poll at 10,000
// flags, a thousand times a gzip poll, only to be refused).
describe('an SDK poll without gzip past 6 MB', () => {
  it('answers ExceedsLimit naming gzip, without making the JSON text', async () => {
    const payload = {
      revision: 1, etag: '"abcdef01:1"', gzipBase64: 'H4sI', jsonBytes: 7 * 1024 * 1024,
      get json(): string { throw new Error('the JSON text was made'); },
    };
    const operations = clientOperations({
      clientFeatures: { features: async () => ({ modified: true, payload }) } as never,
      clientMetrics: {} as never,
    });

    const refusal = await operations.getClientFeatures({
      caller: { tokenName: 'sdk', type: 'client', environment: 'development', projects: ['*'] },
      query: {}, headers: {}, params: {}, body: undefined, checkedRevision: undefined,
    } as never).catch((error: unknown) => error);

    expect(refusal).toBeInstanceOf(ExceedsLimit);
    expect((refusal as Error).message).toMatch(/7\.0 MB.*Accept-Encoding: gzip/);
  });
});
