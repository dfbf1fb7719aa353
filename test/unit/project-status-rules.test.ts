import { describe, expect, it } from 'vitest';
import type { Feature } from '../../lib/features/model.js';
import { flagCreators, lifecycleSummary } from '../../lib/project-status/model.js';
import { isOutdatedSdk, SDK_CUTOFFS } from '../../lib/project-status/sdk-cutoffs.js';

const NOW = new Date('2026-06-30T12:00:00.000Z');
const flag = (name: string, overrides: Partial<Feature> = {}): Feature => ({
  name, project: 'p', type: 'release', description: null, impressionData: false, stale: false, archived: false, archivedAt: null,
  createdAt: '2026-06-01T00:00:00.000Z', environments: {}, tags: [], dependencies: [], children: [], version: 1, ...overrides,
});

describe("Unleash's outdated SDK rule", () => {
  it.each([
    ['unleash-client-node:5.3.1', true],
    ['unleash-client-node:5.3.2', false],
    ['unleash-node-sdk:6.6.0-beta.1', true],
    ['unleash-node-sdk:v6.5.0', true],
    ['unleash-java-sdk:11.0.2', false],
    ['unleash-client-go:4.0.9', true],
  ])('calls %s outdated: %s', (sdkVersion, outdated) => {
    expect(isOutdatedSdk(sdkVersion)).toBe(outdated);
  });

  it('never calls an SDK it lists no cut-off for, a version that is not one, or none, outdated', () => {
    for (const sdkVersion of ['unleash-client-js:1.0.0', 'unleash-client-node:latest', 'unleash-client-node', null, '']) {
      expect(isOutdatedSdk(sdkVersion), String(sdkVersion)).toBe(false);
    }
  });

  it("lists Unleash 7.6.5's cut-offs for both the old and the renamed SDK names", () => {
    expect(SDK_CUTOFFS['unleash-client-python']).toBe('5.11.0');
    expect(SDK_CUTOFFS['unleash-python-sdk']).toBe('6.3.0');
  });
});

describe("a project's lifecycle summary", () => {
  it('counts each active flag in the stage it entered last, and averages the whole days flags spent in a stage they left', () => {
    const stages: Record<string, Array<{ stage: string; enteredStageAt: string }>> = {
      a: [{ stage: 'initial', enteredStageAt: '2026-06-01T00:00:00.000Z' }, { stage: 'pre-live', enteredStageAt: '2026-06-03T00:00:00.000Z' }],
      b: [{ stage: 'initial', enteredStageAt: '2026-06-01T00:00:00.000Z' }, { stage: 'pre-live', enteredStageAt: '2026-06-06T00:00:00.000Z' }, { stage: 'live', enteredStageAt: '2026-06-10T00:00:00.000Z' }],
      c: [{ stage: 'initial', enteredStageAt: '2026-06-20T00:00:00.000Z' }],
      d: [{ stage: 'initial', enteredStageAt: '2026-01-01T00:00:00.000Z' }, { stage: 'archived', enteredStageAt: '2026-02-01T00:00:00.000Z' }],
      e: [{ stage: 'initial', enteredStageAt: '2026-06-20T00:00:00.000Z' }, { stage: 'archived', enteredStageAt: '2026-06-21T00:00:00.000Z' }],
    };
    const features = [
      flag('a'), flag('b'), flag('c'),
      flag('d', { archived: true, archivedAt: '2026-02-01T00:00:00.000Z' }), flag('e', { archived: true, archivedAt: '2026-06-21T00:00:00.000Z' }),
    ];

    const summary = lifecycleSummary(features, (feature) => stages[feature.name] ?? [], NOW);

    expect(summary).toEqual({
      // a: 2 days, b: 5, d: 31, e: 1 → 39 / 4, rounded.
      initial: { averageDays: 10, currentFlags: 1 },
      preLive: { averageDays: 4, currentFlags: 1 },
      live: { averageDays: null, currentFlags: 1 },
      completed: { averageDays: null, currentFlags: 0 },
      archived: { currentFlags: 2, last30Days: 1 },
    });
  });
});

describe("a project's flag creators", () => {
  it('names each creator of an active flag once, by id, and leaves out flags with no recorded creator', () => {
    const alice = { id: 7, name: 'alice', imageUrl: '' };
    const features = [
      flag('a', { createdBy: alice }), flag('b', { createdBy: alice }), flag('c'),
      flag('d', { createdBy: { id: 9, name: 'bob', imageUrl: '' }, archived: true, archivedAt: '2026-06-02T00:00:00.000Z' }),
      flag('e', { createdBy: { id: -42, name: 'Unleash Admin Token User', imageUrl: '' } }),
    ];

    expect(flagCreators(features)).toEqual([{ id: -42, name: 'Unleash Admin Token User' }, { id: 7, name: 'alice' }]);
  });
});
