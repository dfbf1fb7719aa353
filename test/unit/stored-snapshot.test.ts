import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { decodeSnapshot, encodeSnapshot, PAGE_BYTES, STORED_SNAPSHOT_FORMAT } from '../../lib/client/stored-snapshot.js';
import type { Feature } from '../../lib/features/model.js';

describe('the stored SDK snapshot (ADR 20)', () => {
  it('comes back as it went in, in pages no larger than a page', () => {
    // Random text does not compress: several pages.
    const features = Array.from({ length: 40 }, (_, i) => ({ name: `flag-${i}`, description: randomBytes(20_000).toString('base64') }));
    const content = { features: features as unknown as Feature[], segments: [] };
    const pages = encodeSnapshot(content);
    expect(pages.length).toBeGreaterThan(1);
    for (const page of pages) expect(page.length).toBeLessThanOrEqual(PAGE_BYTES);
    expect(decodeSnapshot(pages)).toEqual(content);
  });

  it('is refused when it is not a snapshot', () => {
    expect(() => decodeSnapshot(encodeSnapshot({ features: undefined, segments: [] } as never))).toThrow(/without features/);
  });

  it('names its format, which changes with the stored models', () => {
    // A stored snapshot holds Feature and Segment objects as JSON: when either model file changes,
    // bump STORED_SNAPSHOT_FORMAT (readers then ignore older snapshots) and record the new fingerprint.
    const fingerprint = createHash('sha256')
      .update(readFileSync('lib/features/model.ts'))
      .update(readFileSync('lib/segments/model.ts'))
      .digest('hex')
      .slice(0, 16);
    expect({ format: STORED_SNAPSHOT_FORMAT, fingerprint }).toEqual({ format: 1, fingerprint: '293049e06e6bfc7f' });
  });
});
