import { describe, expect, it } from 'vitest';
import type { ChangeEvent } from '../../lib/events/model.js';
import type { Feature } from '../../lib/features/model.js';
import { averageDaysToProduction } from '../../lib/insights/time-to-production.js';

const feature = (name: string, createdAt: string) => ({ name, createdAt }) as Feature;
const event = (featureName: string, createdAt: string, changes: string[]): ChangeEvent => ({
  id: `${featureName}-${createdAt}`, type: 'feature-changed', createdAt, createdBy: 'test', featureName, changes,
});

describe('average days to production', () => {
  it('counts from creation to the first enabling in a production-type environment', () => {
    const features = [feature('a', '2026-01-01T00:00:00Z'), feature('b', '2026-01-01T00:00:00Z'), feature('c', '2026-01-01T00:00:00Z')];
    const events = [
      event('a', '2026-01-02T00:00:00Z', ['enabled:development']),
      event('a', '2026-01-03T00:00:00Z', ['enabled:production']),
      event('a', '2026-01-09T00:00:00Z', ['enabled:production']),
      event('b', '2026-01-06T12:00:00Z', ['strategies:prod-eu', 'enabled:prod-eu']),
    ];

    const days = averageDaysToProduction(features, events, new Set(['production', 'prod-eu']));

    expect(days).toBe(3.8);
  });

  it('is 0 when no feature reached production', () => {
    expect(averageDaysToProduction([feature('a', '2026-01-01T00:00:00Z')], [], new Set(['production']))).toBe(0);
  });
});
