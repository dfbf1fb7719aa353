import { afterEach, describe, expect, it, vi } from 'vitest';
import { resolvedScopeOf, resolveQuery, scopeKeyOf, type ClientRequest } from '../../lib/client/query.js';
import { EarlyAnswers } from '../../lib/http/early-answer.js';
import { localContext } from '../../local/api-gateway-event.js';
import type { Caller } from '../../lib/tokens/model.js';

/** A caller as the token authenticator hands it out: frozen, its projects too. */
const frozen = (caller: Caller): Caller => Object.freeze({ ...caller, projects: Object.freeze([...caller.projects]) as string[] });

const callers: Caller[] = [
  frozen({ tokenName: 'a', type: 'admin', environment: '*', projects: ['*'] }),
  frozen({ tokenName: 'c', type: 'client', environment: 'production', projects: ['*'] }),
  frozen({ tokenName: 'p', type: 'client', environment: 'development', projects: ['web'] }),
  frozen({ tokenName: 'b', type: 'backend', environment: 'staging', projects: ['web', 'api', 'web'] }),
];
const requests: ClientRequest[] = [
  {}, { clientSpec: '5.2.0' }, { clientSpec: '4.1.9' }, { clientSpec: 'banana' }, { clientSpec: '' },
  { projects: ['x', 'a'] }, { namePrefix: 'pay' }, { tags: [{ type: 'simple', value: 'x' }] }, { environment: 'production', clientSpec: '5.2.0' },
];

describe('an SDK poll’s resolved scope', () => {
  it('is what resolveQuery and scopeKeyOf make, for every caller and request', () => {
    for (const caller of callers) {
      for (const request of requests) {
        const query = resolveQuery(caller, request);
        for (let poll = 0; poll < 2; poll += 1) expect(resolvedScopeOf(caller, request)).toEqual({ query, key: scopeKeyOf(query) });
      }
    }
  });

  it('is made once per frozen caller and spec header when the query string has no filter, and frozen', () => {
    const [, caller] = callers as [Caller, Caller];
    const first = resolvedScopeOf(caller, { clientSpec: '5.2.0' });

    expect(resolvedScopeOf(caller, { clientSpec: '5.2.0' })).toBe(first);
    expect(resolvedScopeOf(caller, { clientSpec: '4.1.9' })).not.toBe(first);
    expect(resolvedScopeOf(caller, { clientSpec: '4.1.9' }).query.inlineSegmentConstraints).toBe(true);
    expect(Object.isFrozen(first) && Object.isFrozen(first.query)).toBe(true);
  });

  it('is resolved afresh for a filtered query or a caller that could change', () => {
    const [, caller] = callers as [Caller, Caller];
    const open: Caller = { ...caller, projects: [...caller.projects] };

    expect(resolvedScopeOf(caller, { namePrefix: 'a' })).not.toBe(resolvedScopeOf(caller, { namePrefix: 'a' }));
    expect(resolvedScopeOf(open, {})).not.toBe(resolvedScopeOf(open, {}));
    expect(resolvedScopeOf(open, {})).toEqual(resolvedScopeOf(caller, {}));
  });
});

describe('the early answer before the function’s end', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  const refusal = (): never => {
    throw new Error('too late');
  };
  const settleAfter = <T>(ms: number, value: T) => new Promise<T>((resolve) => setTimeout(() => resolve(value), ms));

  it('answers with the handler’s result when it finishes in time, and refuses the one that does not', async () => {
    vi.useFakeTimers();
    const early = new EarlyAnswers(500, refusal);
    const context = localContext('early', 10_000);

    const inTime = early.answer(settleAfter(9_000, 'done'), context);
    const late = early.answer(settleAfter(9_600, 'dropped'), context);
    const lateOutcome = late.catch((error: unknown) => error);
    await vi.advanceTimersByTimeAsync(9_000);
    expect(await inTime).toBe('done');
    await vi.advanceTimersByTimeAsync(600);

    expect(await lateOutcome).toEqual(new Error('too late'));
  });

  it('keeps one timer however many requests are running, and follows a handler’s failure', async () => {
    vi.useFakeTimers();
    const early = new EarlyAnswers(500, refusal);
    const context = localContext('early', 10_000);
    const timersBefore = vi.getTimerCount();

    const answers = Array.from({ length: 50 }, (_, index) => early.answer(settleAfter(index + 1, index), context));
    const failed = early.answer(Promise.reject(new Error('handler failed')), context).catch((error: unknown) => error);

    // The 50 handlers' own timers, and one for the early answers.
    expect(vi.getTimerCount() - timersBefore).toBe(51);
    await vi.advanceTimersByTimeAsync(50);
    expect(await Promise.all(answers)).toEqual(Array.from({ length: 50 }, (_, index) => index));
    expect(await failed).toEqual(new Error('handler failed'));
  });

  it('refuses at once when the time left is within the early margin, and sets no deadline without a clock', async () => {
    const early = new EarlyAnswers(500, refusal);
    const handling = settleAfter(50, 'late');

    await expect(early.answer(handling, { ...localContext('early'), getRemainingTimeInMillis: () => 1 })).rejects.toThrow('too late');
    expect(await early.answer(settleAfter(5, 'clockless'), {} as never)).toBe('clockless');
  });
});
