import { describe, expect, it } from 'vitest';
import { ClientFeatureService } from '../../lib/client/features-service.js';
import { FeatureSnapshots } from '../../lib/client/feature-snapshots.js';
import { resolveQuery, scopeKeyOf } from '../../lib/client/query.js';
import type { Feature } from '../../lib/features/model.js';
import type { Caller } from '../../lib/tokens/model.js';

const feature = (name: string, project: string): Feature => ({
  name, project, type: 'release', description: null, impressionData: false, stale: false,
  archived: false, archivedAt: null, createdAt: '2026-01-01T00:00:00.000Z',
  environments: {
    development: { enabled: true, strategies: [], variants: [] },
    production: { enabled: true, strategies: [], variants: [] },
  },
  tags: [], dependencies: [], children: [], version: 1,
});

const caller = (projects: string[], environment: string): Caller => ({ tokenName: 'sdk', type: 'client', environment, projects });

/**
 * A payload service over fixed data whose ETag hash is the same for every scope, as if an
 * attacker had found a collision of the short hash.
 */
function collidingService() {
  const features = [feature('pub-flag', 'pub'), feature('secret-flag', 'secret')];
  const clock = { current: async () => 7, state: async () => ({ revision: 7, tokenChanges: 0, shards: new Map() }), fresh: async () => ({ revision: 7, tokenChanges: 0, shards: new Map() }) };
  const service = new ClientFeatureService(
    new FeatureSnapshots({ listAll: async () => features, getMany: async () => [] }, { list: async () => [] }, clock, { changesSince: async () => undefined }),
    clock,
    { shortHash: () => 'deadbeef' },
  );
  return service;
}

const namesIn = (answer: Awaited<ReturnType<ClientFeatureService['features']>>): string[] => {
  if (!answer.modified) throw new Error('expected a payload');
  return (JSON.parse(answer.payload.json) as { features: { name: string }[] }).features.map((f) => f.name);
};

describe('the SDK payload cache key', () => {
  it('is the whole canonical query: scopes that differ only far into a long prefix get different keys', () => {
    const long = 'x'.repeat(500);
    const a = resolveQuery(caller(['pub'], 'development'), { namePrefix: `${long}a` });
    const b = resolveQuery(caller(['pub'], 'development'), { namePrefix: `${long}b` });

    expect(scopeKeyOf(a)).not.toBe(scopeKeyOf(b));
    expect(scopeKeyOf(a)).toContain(`${long}a`);
  });

  it('never serves one scope the payload another built, even when their short hashes are equal', async () => {
    const service = collidingService();

    // The attacker's scope polls first, then the victim's: same short hash, same revision.
    const attacker = await service.features(caller(['pub'], 'development'), { namePrefix: 'pub' }, undefined);
    const victim = await service.features(caller(['secret'], 'production'), {}, undefined);
    const attackerAgain = await service.features(caller(['pub'], 'development'), { namePrefix: 'pub' }, undefined);

    expect(namesIn(attacker)).toEqual(['pub-flag']);
    expect(namesIn(victim)).toEqual(['secret-flag']);
    expect(namesIn(attackerAgain)).toEqual(['pub-flag']);
  });

  it('builds each scope separately when two colliding scopes poll at the same moment', async () => {
    const service = collidingService();

    const [attacker, victim] = await Promise.all([
      service.features(caller(['pub'], 'development'), { namePrefix: 'nothing-matches' }, undefined),
      service.features(caller(['secret'], 'production'), {}, undefined),
    ]);

    expect(namesIn(attacker)).toEqual([]);
    expect(namesIn(victim)).toEqual(['secret-flag']);
  });
});
