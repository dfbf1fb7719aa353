import { describe, expect, it } from 'vitest';
import { resolvedScopeOf, resolveQuery, scopeKeyOf, type ClientRequest } from '../../lib/client/query.js';
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
