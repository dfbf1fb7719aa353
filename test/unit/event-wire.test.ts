import { describe, expect, it } from 'vitest';
import type { ChangeEvent } from '../../lib/events/model.js';
import { unleashEventCount, unleashEvents } from '../../lib/events/wire.js';

const event = (type: string, details: Partial<ChangeEvent> = {}): ChangeEvent => ({
  id: 'e', type, createdAt: '2026-03-01T10:00:00.000Z', createdBy: 'admin', ...details,
});

describe("counting Unleash's events of a recorded one", () => {
  it('gives as many as the event log lists for it, whatever it records', () => {
    const recorded = [
      event('project-created', { project: 'p' }),
      event('project-member-added', { project: 'p', changes: ['a', 'b'] }),
      event('feature-changed', { project: 'p', featureName: 'f', changes: ['created'] }),
      event('feature-changed', { project: 'p', featureName: 'f', changes: ['enabled:production', 'strategies:production', 'tags'] }),
      event('feature-changed', { project: 'p', featureName: 'f', changes: [] }),
      event('feature-changed', { project: 'p', featureName: 'f' }),
      event('feature-changed', { project: 'p', changes: ['enabled:production', 'metadata'] }),
      event('feature-type-updated', { changes: ['release: 40'] }),
    ];

    expect(recorded.map(unleashEventCount)).toEqual(recorded.map((one) => unleashEvents(one).length));
    expect(recorded.map(unleashEventCount)).toEqual([1, 1, 1, 3, 1, 1, 1, 1]);
  });
});
