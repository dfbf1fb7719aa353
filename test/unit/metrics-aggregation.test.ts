import { describe, expect, it } from 'vitest';
import {
  counterExpiry, decodeMessage, encodeEntries, lastSeenOf, latestUnknown, sumEntries, type MetricsEntry,
} from '../../lib/client/metrics-aggregation.js';
import { variantCounts } from '../../lib/client/metrics-service.js';

const entry = (overrides: Partial<MetricsEntry> = {}): MetricsEntry => ({
  hour: '2026-11-24T10', environment: 'development', feature: 'f', yes: 1, no: 0, variants: {}, apps: ['a'], seenAt: '2026-11-24T10:00:00.000Z',
  ...overrides,
});

describe('summing SDK metrics (ADR 15)', () => {
  it('adds counts and variants per hour, environment and feature, joins apps and keeps the latest time', () => {
    const sums = sumEntries([
      entry({ yes: 2, no: 1, variants: { blue: 2 }, apps: ['a'] }),
      entry({ yes: 3, no: 4, variants: { blue: 1, red: 5 }, apps: ['b', 'a'], seenAt: '2026-11-24T10:05:00.000Z' }),
      entry({ environment: 'production' }),
      entry({ hour: '2026-11-24T11' }),
    ]);

    expect(sums).toHaveLength(3);
    expect(sums[0]).toEqual(entry({ yes: 5, no: 5, variants: { blue: 3, red: 5 }, apps: ['a', 'b'], seenAt: '2026-11-24T10:05:00.000Z' }));
  });

  it('gives one last-seen per feature and environment, the latest over every hour', () => {
    const seen = lastSeenOf([entry({ seenAt: '2026-11-24T10:59:00.000Z' }), entry({ hour: '2026-11-24T11', seenAt: '2026-11-24T11:01:00.000Z' })]);

    expect(seen).toEqual([{ feature: 'f', environment: 'development', at: '2026-11-24T11:01:00.000Z' }]);
  });

  it('splits entries into messages of at most the size asked, and reads them back whole', () => {
    const entries = Array.from({ length: 1000 }, (_, i) => entry({ feature: `feature-with-a-long-name-${i}`, variants: { blue: i } }));

    const bodies = encodeEntries(entries, 16 * 1024);

    expect(bodies.length).toBeGreaterThan(1);
    expect(bodies.every((body) => Buffer.byteLength(body) <= 16 * 1024)).toBe(true);
    expect(bodies.flatMap((body) => decodeMessage(body).entries)).toEqual(entries);
  });

  it('carries the unknown names reported beside the counts, split like them, and reads them back whole', () => {
    const entries = Array.from({ length: 200 }, (_, i) => entry({ feature: `known-${i}` }));
    const unknown = Array.from({ length: 300 }, (_, i) => ({ name: `typo-${i}`, appName: 'web', environment: 'development', seenAt: '2026-11-24T10:00:00.000Z' }));

    const bodies = encodeEntries(entries, 8 * 1024, unknown);

    expect(bodies.length).toBeGreaterThan(1);
    expect(bodies.every((body) => Buffer.byteLength(body) <= 8 * 1024)).toBe(true);
    expect(bodies.flatMap((body) => decodeMessage(body).entries)).toEqual(entries);
    expect(bodies.flatMap((body) => decodeMessage(body).unknown)).toEqual(unknown);
  });

  it('reads a message queued before unknown names were carried as counts alone', () => {
    const decoded = decodeMessage(JSON.stringify({ v: 1, e: [['2026-11-24T10', 'development', 'f', 1, 0, {}, [], 'x']] }));
    expect(decoded).toMatchObject({ unknown: [], unreadable: 0 });
    expect(decoded.entries).toHaveLength(1);
  });

  it('keeps one unknown report per name, application and environment, the latest', () => {
    const at = (hour: string) => `2026-11-24T${hour}:00:00.000Z`;
    const reports = [
      { name: 'typo', appName: 'web', environment: 'development', seenAt: at('10') },
      { name: 'typo', appName: 'web', environment: 'development', seenAt: at('11') },
      { name: 'typo', appName: 'api', environment: 'development', seenAt: at('09') },
    ];
    expect(latestUnknown(reports)).toEqual([reports[1], reports[2]]);
  });

  it('leaves out what is no entry instead of failing the batch', () => {
    expect(decodeMessage('not json')).toEqual({ entries: [], unknown: [], unreadable: 1 });
    const decoded = decodeMessage(JSON.stringify({ v: 1, e: [['2026-11-24T10', 'development', 'f', 1, 0, {}, [], 'x'], ['bad'], [1, 2]] }));
    expect(decoded.entries).toHaveLength(1);
    expect(decoded.unreadable).toBe(2);
  });

  it('lets a counter expire 48 hours after its hour ends, as Unleash deletes hourly metrics', () => {
    expect(counterExpiry('2026-11-24T10')).toBe(Date.parse('2026-11-26T11:00:00Z') / 1000);
  });

  it('keeps the variant counts an SDK sends when they are whole and named, drops the rest', () => {
    expect(variantCounts({ blue: 2, red: 0, '': 1, green: 1.5, purple: '3', disabled: 4 })).toEqual({ blue: 2, disabled: 4 });
    expect(variantCounts([1, 2])).toEqual({});
    expect(variantCounts(undefined)).toEqual({});
  });
});
