import { describe, expect, it } from 'vitest';
import { Turns } from '../../lib/store/local-request-queue.js';

/** Takes a turn for `name` and records when it starts. */
function taker(turns: Turns, started: string[]) {
  return (name: string, deadline: number) => {
    const waiting = turns.take(deadline);
    if (waiting === undefined) started.push(name);
    else void waiting.then(() => started.push(name));
  };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('the turns of a local client', () => {
  it('starts at once while turns are free, then hands each freed turn to the earliest deadline, first come among equals', async () => {
    const turns = new Turns(2);
    const started: string[] = [];
    const take = taker(turns, started);

    take('a', 500);
    take('b', 100);
    take('late', 900);
    take('early', 200);
    take('early too', 200);
    await settle();
    expect(started).toEqual(['a', 'b']);

    for (let freed = 0; freed < 3; freed += 1) turns.give();
    await settle();
    expect(started).toEqual(['a', 'b', 'early', 'early too', 'late']);
  });

  it('frees the turn when nobody waits, so the next taker starts at once', async () => {
    const turns = new Turns(1);
    const started: string[] = [];
    const take = taker(turns, started);

    take('first', 1);
    turns.give();
    take('second', 2);
    take('third', 3);
    await settle();

    expect(started).toEqual(['first', 'second']);
  });
});
