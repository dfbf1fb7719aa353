import { describe, expect, it } from 'vitest';
import { FlagEvaluator, textDependsOnlyOnContext, type EvaluatedPayload } from '../../lib/frontend/evaluator.js';
import { seededRandom } from '../support/seeded-random.js';

// The Frontend API answers a context it answered before from memory only when the payload's
// answers depend on the context alone (lib/frontend/service.ts): these decide that.
const payloadWith = (strategy: Record<string, unknown>, segments: EvaluatedPayload['segments'] = []): EvaluatedPayload => ({
  features: [{ name: 'flag', enabled: true, strategies: [strategy], variants: [] } as never],
  segments,
});

describe('FlagEvaluator.deterministic', () => {
  it('is true for strategies that read only the context', () => {
    expect(new FlagEvaluator(payloadWith({ name: 'default', parameters: {}, constraints: [] })).deterministic).toBe(true);
    expect(new FlagEvaluator(payloadWith({
      name: 'flexibleRollout', parameters: { rollout: '50', stickiness: 'default', groupId: 'flag' },
      constraints: [{ contextName: 'userId', operator: 'IN', values: ['a'] }],
    })).deterministic).toBe(true);
  });

  it.each([
    ['random stickiness', { name: 'flexibleRollout', parameters: { rollout: '50', stickiness: 'random', groupId: 'flag' }, constraints: [] }],
    ['gradualRolloutRandom', { name: 'gradualRolloutRandom', parameters: { percentage: '50' }, constraints: [] }],
    ['a date constraint', { name: 'default', parameters: {}, constraints: [{ contextName: 'currentTime', operator: 'DATE_AFTER', value: '2026-01-01T00:00:00Z' }] }],
  ])('is false with %s', (_, strategy) => {
    expect(new FlagEvaluator(payloadWith(strategy)).deterministic).toBe(false);
  });

  it('is false when a segment holds a date constraint', () => {
    const segment = { id: 1, constraints: [{ contextName: 'currentTime', operator: 'DATE_BEFORE', value: '2030-01-01T00:00:00Z' }] };
    expect(new FlagEvaluator(payloadWith({ name: 'default', parameters: {}, constraints: [], segments: [1] }, [segment as never])).deterministic).toBe(false);
  });

  it('reads the same from the payload\'s text as from its objects, keys hidden inside strings and other keys ending in those names included', () => {
    const strategies: Record<string, unknown>[] = [
      { name: 'default', parameters: {}, constraints: [] },
      { name: 'flexibleRollout', parameters: { rollout: '50', stickiness: 'default', groupId: 'f' }, constraints: [] },
      { name: 'flexibleRollout', parameters: { rollout: '50', stickiness: 'userId', groupId: 'f' }, constraints: [] },
      { name: 'flexibleRollout', parameters: { rollout: '50', stickiness: 'de"fault', groupId: 'f' }, constraints: [] },
      { name: 'flexibleRollout', parameters: { rollout: '50', stickiness: '', groupId: 'f' }, constraints: [] },
      { name: 'default', parameters: { 'x"name': 'gradualRolloutRandom', 'x\\': 'operator' }, constraints: [] },
      { name: 'default', parameters: { note: '{"name":"gradualRolloutRandom","stickiness":"random","operator":"DATE_AFTER"}' }, constraints: [] },
      { name: 'gradualRolloutRandom', parameters: { percentage: '50' }, constraints: [] },
      { name: 'default', parameters: {}, constraints: [{ contextName: 'currentTime', operator: 'DATE_BEFORE', value: '2030-01-01T00:00:00Z' }] },
      { name: 'default', parameters: {}, constraints: [{ contextName: 'userId', operator: 'IN', values: ['DATE_AFTER', '"operator":"DATE_AFTER"'] }] },
      { name: 'default', parameters: {}, constraints: [], variants: [{ name: 'v', weight: 1000, stickiness: 'default' }, { name: 'w', weight: 0, stickiness: null }] },
      { name: 'default', parameters: {}, constraints: [], variants: [{ name: 'v', weight: 1000, stickiness: 'sessionId' }] },
      // Values the service never writes: an object or a list where a string belongs reads as
      // depending on more than the context, from the text as from the objects.
      { name: 'default', parameters: {}, constraints: [{ contextName: 'userId', operator: { stickiness: 'random' }, values: [] }] },
      { name: 'default', parameters: {}, constraints: [{ contextName: 'currentTime', operator: ['DATE_AFTER'], value: '2026-01-01T00:00:00Z' }] },
      { name: 'default', parameters: {}, constraints: [{ contextName: 'userId', operator: ['IN'], values: ['a'] }] },
      { name: 'default', parameters: {}, constraints: [], variants: [{ name: { stickiness: 'default' }, weight: 1000, stickiness: 'default' }] },
      { name: 'default', parameters: {}, constraints: [{ contextName: 'userId', operator: 7, values: ['a'] }] },
    ];
    const verdicts = strategies.map((strategy) => {
      const payload = payloadWith(strategy);
      return [new FlagEvaluator(payload).deterministic, textDependsOnlyOnContext(JSON.stringify(payload))];
    });
    for (const [fromObjects, fromText] of verdicts) expect(fromText).toBe(fromObjects);
    expect(verdicts.map(([fromObjects]) => fromObjects)).toEqual([true, true, false, false, false, true, true, false, false, true, true, false, false, false, false, false, true]);
  });

  it('reads any text as a regular expression matching every key and its value does, on drawn texts', () => {
    // The scan the text reading replaced: each `"key":` right after `{` or `,`, its value a whole
    // string, `null`, or one character other than a line break, every occurrence visited.
    const byExpression = (text: string) => {
      for (const [, key, value] of text.matchAll(/[{,]"(stickiness|operator|name)":(?=("(?:[^"\\]|\\.)*"|null|.))/g)) {
        if (key === 'stickiness' && value !== '"default"' && value !== 'null') return false;
        if (key === 'operator' && (value === '"DATE_AFTER"' || value === '"DATE_BEFORE"')) return false;
        if (key === 'name' && value === '"gradualRolloutRandom"') return false;
        if ((key === 'operator' || key === 'name') && (value === '{' || value === '[')) return false;
      }
      return true;
    };
    const pieces = ['{', ',', '[', ':', '"', '\\"', '\n', '\u2028', 'x', 'null', 'nul', '"default"', '"default', '"defaultx"', '"DATE_AFTER"', '"DATE_AFTER',
      '"DATE_BEFORE"', '"gradualRolloutRandom"', '"stickiness":', '"operator":', '"name":', '{"stickiness":', ',"operator":', ',"name":', '{"name":', 'stickiness', '"name"', '"x":', '"a\\"b"'];
    const random = seededRandom('text scan against the expression').next;
    const verdicts = { true: 0, false: 0 };
    for (let draw = 0; draw < 20_000; draw += 1) {
      const length = 1 + Math.floor(random() * 8);
      const text = Array.from({ length }, () => pieces[Math.floor(random() * pieces.length)]).join('');
      const expected = byExpression(text);
      if (textDependsOnlyOnContext(text) !== expected) expect.fail(`${JSON.stringify(text)}: expected ${expected}`);
      verdicts[`${expected}`] += 1;
    }
    // Both verdicts are drawn often enough for the comparison to mean something.
    expect(Math.min(verdicts.true, verdicts.false)).toBeGreaterThan(1_000);
  });
});

describe('FlagEvaluator\'s quick answers for OFREP', () => {
  const segment = { id: 7, name: 'beta', constraints: [{ contextName: 'userId', operator: 'STR_STARTS_WITH', values: ['beta-'], inverted: false, caseInsensitive: false }] };
  const strategies: Record<string, unknown>[] = [
    { name: 'default', parameters: {}, constraints: [] },
    { name: 'flexibleRollout', parameters: { rollout: '100', stickiness: 'default', groupId: 'f' }, constraints: [{ contextName: 'appName', operator: 'IN', values: ['web'] }] },
    { name: 'flexibleRollout', parameters: { rollout: '30', stickiness: 'default', groupId: 'f' }, constraints: [] },
    { name: 'userWithId', parameters: { userIds: 'beta-1, alice' }, constraints: [] },
    { name: 'remoteAddress', parameters: { IPs: '10.0.0.1' }, constraints: [] },
    { name: 'default', parameters: {}, constraints: [], segments: [7] },
    { name: 'default', parameters: {}, constraints: [], segments: [8] },
    { name: 'custom-of-theirs', parameters: {}, constraints: [] },
    { name: 'flexibleRollout', parameters: { rollout: '100', stickiness: 'default', groupId: 'f' }, constraints: [{ contextName: 'userId', operator: 'IN', values: ['alice'], inverted: true }],
      variants: [{ name: 'blue', weight: 500, stickiness: 'default', payload: { type: 'string', value: 'b' } }, { name: 'green', weight: 500, stickiness: 'default' }] },
  ];
  const contexts = ['alice', 'beta-1', 'beta-2', 'carol', 'user-42'].flatMap((userId) =>
    ['web', 'ios'].map((appName) => ({ userId, appName, sessionId: `s-${userId}`, remoteAddress: '10.0.0.1', environment: 'development' })));

  it('strategyEnabled says what strategyVerdict says of each strategy, and variantOf what verdict says of each flag', () => {
    const features = strategies.map((strategy, index) => ({ name: `flag-${index}`, enabled: true, strategies: [strategy], variants: [], dependencies: [] }));
    const evaluator = new FlagEvaluator({ features: features as never, segments: [segment as never] });
    let enabledSeen = 0;
    for (const context of contexts) {
      for (const [index, strategy] of strategies.entries()) {
        const quick = evaluator.strategyEnabled(strategy as never, context);
        expect(quick).toBe(evaluator.strategyVerdict(strategy as never, context)?.enabled);
        const variant = evaluator.variantOf(`flag-${index}`, context);
        const verdict = evaluator.verdict(`flag-${index}`, context);
        expect(variant.feature_enabled ?? false).toBe(verdict.enabled);
        expect({ name: variant.name, enabled: variant.enabled, payload: variant.payload }).toEqual({ name: verdict.variant.name, enabled: verdict.variant.enabled, payload: verdict.variant.payload });
        if (quick) enabledSeen += 1;
      }
    }
    // Both answers occur, and a strategy type the engine lacks answers undefined in both.
    expect(enabledSeen).toBeGreaterThan(10);
    expect(enabledSeen).toBeLessThan(contexts.length * strategies.length);
    expect(evaluator.strategyEnabled(strategies[7] as never, contexts[0]!)).toBeUndefined();
  });
});

