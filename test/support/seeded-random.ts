import { randomInt } from 'node:crypto';
import { seededRandom as generatorFrom } from '../../local/aws-like-dynamodb/random.js';

/**
 * Randomness a failure can be replayed from: TEST_SEED when set, else a fresh seed per test file,
 * printed either way. A test that shuffles or draws values takes them from here, never from
 * Math.random, so TEST_SEED=<printed seed> runs it again in the same order with the same values.
 */
export function seededRandom(purpose: string): { seed: number; next: () => number } {
  const seed = seedFromEnv(process.env.TEST_SEED) ?? randomInt(2 ** 31);
  console.log(`${purpose}: seed ${seed} (replay with TEST_SEED=${seed})`);
  return { seed, next: generatorFrom(seed) };
}

/** A copy of `items` in an order drawn from `random` (Fisher–Yates). */
export function shuffled<T>(items: readonly T[], random: () => number): T[] {
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i -= 1) {
    const j = Math.floor(random() * (i + 1));
    [copy[i], copy[j]] = [copy[j] as T, copy[i] as T];
  }
  return copy;
}

function seedFromEnv(value: string | undefined): number | undefined {
  if (value === undefined || value === '') return undefined;
  const seed = Number(value);
  // A seed that is not a whole number would replay nothing: say so rather than draw a new one.
  if (!Number.isSafeInteger(seed)) throw new Error(`TEST_SEED must be a whole number, not ${JSON.stringify(value)}`);
  return seed;
}
