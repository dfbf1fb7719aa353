import { describe, expect, it } from 'vitest';
import type { ChangeEvent } from '../../lib/events/model.js';
import type { Feature } from '../../lib/features/model.js';
import { projectStats } from '../../lib/insights/project-stats.js';

const now = new Date('2026-03-01T00:00:00Z');
const daysAgo = (days: number) => new Date(now.getTime() - days * 86_400_000).toISOString();
const event = (featureName: string, age: number, changes: string[], project = 'p'): ChangeEvent => ({
  id: `${featureName}-${age}-${changes.join()}`, type: 'feature-changed', createdAt: daysAgo(age), createdBy: 't', project, featureName, changes,
});

describe('project stats windows', () => {
  it('splits events into the last 30 days and the 30 before, per project', () => {
    const features = [{ name: 'a', project: 'p', createdAt: daysAgo(50) }, { name: 'b', project: 'p', createdAt: daysAgo(10) }] as Feature[];
    const events = [
      event('a', 50, ['created']),
      event('a', 40, ['enabled:development']),
      event('b', 10, ['created']),
      event('a', 5, ['archived']),
      event('b', 4, ['enabled:production', 'strategies:production']),
      event('x', 3, ['created'], 'other'),
    ];

    const stats = projectStats('p', features, events, new Set(['production']), now);

    expect(stats).toEqual({
      avgTimeToProdCurrentWindow: 6,
      createdCurrentWindow: 1,
      createdPastWindow: 1,
      archivedCurrentWindow: 1,
      archivedPastWindow: 0,
      projectActivityCurrentWindow: 3,
      projectActivityPastWindow: 2,
      projectMembersAddedCurrentWindow: 0,
    });
  });
});
