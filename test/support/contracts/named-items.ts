import { expect, it } from 'vitest';

/** How a contract suite gets the store under test: a new, empty one for each case. */
export type MakeStore<S> = () => Promise<S> | S;

/** The reads and the insert every named collection has (environments, context fields, tag types). */
export interface NamedItemReads<T extends { name: string }> {
  list(): Promise<T[]>;
  get(name: string): Promise<T | undefined>;
  insert(value: T): Promise<boolean>;
}

/** The edits of the collections an admin may change and delete members of. */
export interface NamedItemEdits<T extends { name: string }, R extends { name: string }> extends NamedItemReads<T> {
  replace(value: R): Promise<boolean>;
  delete(name: string): Promise<boolean>;
}

/**
 * The cases of a named collection's list, get and insert. `member(name)` makes a valid member;
 * two calls with different names must differ only in the name.
 */
export function namedItemReadCases<T extends { name: string }>(
  makeStore: MakeStore<NamedItemReads<T>>,
  member: (name: string) => T,
): void {
  it('starts empty: the list is empty and a get answers undefined', async () => {
    const store = await makeStore();

    expect(await store.list()).toEqual([]);
    expect(await store.get('absent')).toBeUndefined();
  });

  it('answers true to an insert of a new name and reads the member back as written', async () => {
    const store = await makeStore();
    const written = member('first');

    expect(await store.insert(written)).toBe(true);

    expect(await store.get('first')).toEqual(written);
    expect(await store.list()).toEqual([written]);
  });

  it('answers false to an insert of a taken name and keeps the member written first', async () => {
    const store = await makeStore();
    const first = member('taken');
    await store.insert(first);

    expect(await store.insert({ ...member('taken'), ...differentFrom(first) })).toBe(false);

    expect(await store.get('taken')).toEqual(first);
    expect(await store.list()).toHaveLength(1);
  });

  it('lists members by name in byte order (capitals first), whatever the order of the inserts', async () => {
    const store = await makeStore();
    for (const name of ['beta', 'alpha-2', 'Zulu', 'alpha', 'alpha_1']) await store.insert(member(name));

    const names = (await store.list()).map((listed) => listed.name);

    expect(names).toEqual(['Zulu', 'alpha', 'alpha-2', 'alpha_1', 'beta']);
  });

  it('answers copies: changing what was read or written changes nothing stored', async () => {
    const store = await makeStore();
    const written = member('kept');
    await store.insert(written);
    const expected = structuredClone(written);

    Object.assign(written, differentFrom(expected));
    const read = await store.get('kept');
    Object.assign(read as T, differentFrom(expected));
    (await store.list())[0]!.name = 'renamed';

    expect(await store.get('kept')).toEqual(expected);
    expect(await store.list()).toEqual([expected]);
  });
}

/**
 * The cases of replace and delete. `change(member)` is what a replace writes: the member's name
 * and new values for some of its attributes; what it leaves out must be kept.
 */
export function namedItemEditCases<T extends { name: string }, R extends { name: string }>(
  makeStore: MakeStore<NamedItemEdits<T, R>>,
  member: (name: string) => T,
  change: (member: T) => R,
): void {
  it('answers true to a replace of an existing member, sets what it is given and keeps the rest', async () => {
    const store = await makeStore();
    const before = member('edited');
    await store.insert(before);
    const replacement = change(before);

    expect(await store.replace(replacement)).toBe(true);

    const after = await store.get('edited');
    expect(after).toEqual({ ...before, ...replacement });
    expect(after).not.toEqual(before);
    expect(await store.list()).toEqual([after]);
  });

  it('keeps an attribute a replace gives as undefined', async () => {
    const store = await makeStore();
    const before = member('partly');
    await store.insert(before);
    const replacement = change(before);
    const left = Object.keys(replacement).find((name) => name !== 'name') as keyof R;

    expect(await store.replace({ ...replacement, [left]: undefined })).toBe(true);

    const after = (await store.get('partly')) as unknown as Record<keyof R, unknown>;
    expect(after[left]).toEqual((before as unknown as Record<keyof R, unknown>)[left]);
  });

  it('answers false to a replace of a missing member and creates nothing', async () => {
    const store = await makeStore();

    expect(await store.replace(change(member('missing')))).toBe(false);

    expect(await store.get('missing')).toBeUndefined();
    expect(await store.list()).toEqual([]);
  });

  it('answers true to a delete of an existing member, which then is gone; the others stay', async () => {
    const store = await makeStore();
    await store.insert(member('going'));
    await store.insert(member('staying'));

    expect(await store.delete('going')).toBe(true);

    expect(await store.get('going')).toBeUndefined();
    expect((await store.list()).map((listed) => listed.name)).toEqual(['staying']);
  });

  it('answers false to a delete of a missing member, also a second delete of one', async () => {
    const store = await makeStore();
    await store.insert(member('once'));
    await store.delete('once');

    expect(await store.delete('once')).toBe(false);
    expect(await store.delete('never')).toBe(false);
  });

  it('takes a deleted name again', async () => {
    const store = await makeStore();
    await store.insert(member('again'));
    await store.delete('again');

    expect(await store.insert(member('again'))).toBe(true);
    expect(await store.get('again')).toEqual(member('again'));
  });
}

/** New values for every attribute but the name, of the same types as the member's. */
function differentFrom<T extends { name: string }>(member: T): Partial<T> {
  const changed: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(member)) {
    if (name === 'name') continue;
    if (typeof value === 'string') changed[name] = `${value}, changed`;
    else if (typeof value === 'number') changed[name] = value + 1;
    else if (typeof value === 'boolean') changed[name] = !value;
    else if (value === null) changed[name] = 'no longer null';
    else if (Array.isArray(value)) changed[name] = [];
  }
  return changed as Partial<T>;
}
