import { describe, expect, it } from 'vitest';
import { Conflict, NotFound, ValidationFailed } from '../../../lib/errors.js';
import { TagTypeService } from '../../../lib/tag-types/service.js';
import { FakeTagStore } from '../../support/fakes/tag-store.js';
import { FakeTagTypeStore } from '../../support/fakes/tag-type-store.js';

function tagTypes() {
  const types = new FakeTagTypeStore();
  const tags = new FakeTagStore();
  return { types, tags, service: new TagTypeService(types, tags) };
}

describe('TagTypeService on fake stores', () => {
  it('creates a type with null for a left-out description or icon', async () => {
    const { service } = tagTypes();

    expect(await service.create('team', { description: 'Who owns it' })).toEqual({ name: 'team', description: 'Who owns it', icon: null });
    expect(await service.get('team')).toEqual({ name: 'team', description: 'Who owns it', icon: null });
    expect(await service.exists('team')).toBe(true);
  });

  it('refuses a taken name with Conflict, on create and on checkNew, and keeps the first type', async () => {
    const { service } = tagTypes();
    await service.create('team', { description: 'first' });

    await expect(service.create('team', { description: 'second' })).rejects.toThrow(new Conflict('There already exists a tag-type with the name team'));
    await expect(service.checkNew('team', {})).rejects.toThrow(Conflict);

    expect((await service.get('team')).description).toBe('first');
  });

  it('answers what a create would make on checkNew, without making it', async () => {
    const { service } = tagTypes();

    expect(await service.checkNew('team', { icon: 'people' })).toEqual({ name: 'team', description: null, icon: 'people' });

    expect(await service.exists('team')).toBe(false);
  });

  it('lists types by name in locale order (a capital among the small letters), not the store\'s byte order', async () => {
    const { service } = tagTypes();
    for (const name of ['beta', 'Zulu', 'alpha']) await service.create(name, {});

    expect((await service.list()).map((type) => type.name)).toEqual(['alpha', 'beta', 'Zulu']);
  });

  it('clears on update what the body leaves out', async () => {
    const { service } = tagTypes();
    await service.create('team', { description: 'Who owns it', icon: 'people' });

    expect(await service.update('team', { icon: 'group' })).toEqual({ name: 'team', description: null, icon: 'group' });

    expect(await service.get('team')).toEqual({ name: 'team', description: null, icon: 'group' });
  });

  it('refuses an update naming another type with ValidationFailed, and one of a missing type with NotFound', async () => {
    const { service } = tagTypes();
    await service.create('team', { description: 'Who owns it' });

    await expect(service.update('team', { name: 'area' })).rejects.toThrow(ValidationFailed);
    await expect(service.update('area', {})).rejects.toThrow(new NotFound('Could not find tag type with name area'));

    expect(await service.get('team')).toEqual({ name: 'team', description: 'Who owns it', icon: null });
    expect(await service.exists('area')).toBe(false);
  });

  it('deletes a type, and answers NotFound for a missing one', async () => {
    const { service } = tagTypes();
    await service.create('team', {});

    await service.delete('team');

    await expect(service.get('team')).rejects.toThrow(NotFound);
    await expect(service.delete('team')).rejects.toThrow(NotFound);
  });

  it('creates a tag of a type that exists, once', async () => {
    const { service } = tagTypes();
    await service.create('team', {});

    expect(await service.createTag({ type: 'team', value: 'checkout' })).toEqual({ type: 'team', value: 'checkout' });
    await expect(service.createTag({ type: 'team', value: 'checkout' })).rejects.toThrow(Conflict);

    expect(await service.listTags()).toEqual([{ type: 'team', value: 'checkout' }]);
  });

  it('refuses a tag of an unknown type with ValidationFailed and stores no tag', async () => {
    const { service, tags } = tagTypes();

    await expect(service.createTag({ type: 'team', value: 'checkout' })).rejects.toThrow(new ValidationFailed("type: Tag type 'team' does not exist"));

    expect(await tags.list()).toEqual([]);
  });

  it('lists tags by type and value in locale order, leaving out those of deleted types, narrowed to one type on request', async () => {
    const { service, tags } = tagTypes();
    await service.create('team', {});
    await service.create('area', {});
    // Tags the feature store wrote: they stay when their type is deleted.
    await tags.insert({ type: 'owner', value: 'nobody' });
    for (const value of ['search', 'Billing', 'checkout']) await service.createTag({ type: 'team', value });
    await service.createTag({ type: 'area', value: 'web' });

    expect(await service.listTags()).toEqual([
      { type: 'area', value: 'web' },
      { type: 'team', value: 'Billing' },
      { type: 'team', value: 'checkout' },
      { type: 'team', value: 'search' },
    ]);
    expect(await service.listTags('area')).toEqual([{ type: 'area', value: 'web' }]);

    await service.delete('area');
    expect((await service.listTags()).map((tag) => tag.type)).toEqual(['team', 'team', 'team']);
  });
});
