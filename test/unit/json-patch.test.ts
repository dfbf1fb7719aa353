import { describe, expect, it } from 'vitest';
import { ValidationFailed } from '../../lib/errors.js';
import { applyJsonPatch, patchSchema, reachesPrototype } from '../../lib/features/json-patch.js';

describe('JSON Patch pointers into the prototype', () => {
  it.each(['/__proto__', '/__proto__/x', '/0/constructor/prototype', '/a/prototype', '/constructor'])('finds %s', (pointer) => {
    expect(reachesPrototype(pointer)).toBe(true);
  });

  it.each(['/description', '/0/name', '/__proto~1x', '/proto', '/a~0prototype', ''])('lets %j through: no segment is one of them once unescaped', (pointer) => {
    expect(reachesPrototype(pointer)).toBe(false);
  });

  it('names the operation and the field in the schema message', () => {
    const parsed = patchSchema.safeParse([{ op: 'replace', path: '/type', value: 'x' }, { op: 'copy', from: '/__proto__', path: '/x' }]);

    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues.map((issue) => issue.path)).toEqual([[1, 'from']]);
  });

  it('is refused by the domain too, as a validation failure rather than the library TypeError', () => {
    const apply = () => applyJsonPatch({ a: 1 }, [{ op: 'add', path: '/__proto__/polluted', value: true }]);

    expect(apply).toThrow(ValidationFailed);
    expect(apply).toThrow(/^0\.path: must not reach __proto__/);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('turns a library failure into a validation failure naming the operation', () => {
    expect(() => applyJsonPatch({ a: 1 }, [{ op: 'replace', path: '/a', value: 2 }, { op: 'remove', path: '/missing' }])).toThrow(/^1: /);
  });
});
