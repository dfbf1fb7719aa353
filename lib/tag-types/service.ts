import { Conflict, NotFound, ValidationFailed } from '../errors.js';
import type { TagType } from './model.js';
import type { TagTypeStore } from './store.js';

export interface TagTypeInput {
  description?: string | null | undefined;
  icon?: string | null | undefined;
}

/** The kinds of tags features may carry. */
export class TagTypeService {
  constructor(private readonly store: TagTypeStore) {}

  async list(): Promise<TagType[]> {
    return (await this.store.list()).sort((a, b) => a.name.localeCompare(b.name));
  }

  async get(name: string): Promise<TagType> {
    const type = await this.store.get(name);
    if (!type) throw notFound(name);
    return type;
  }

  async exists(name: string): Promise<boolean> {
    return (await this.store.get(name)) !== undefined;
  }

  async create(name: string, input: TagTypeInput): Promise<TagType> {
    const type = toTagType(name, input);
    if (!(await this.store.insert(type))) throw new Conflict(`There already exists a tag-type with the name ${name}`);
    return type;
  }

  /** PUT: a left-out description or icon is cleared; the name in the path wins. */
  async update(name: string, input: TagTypeInput & { name?: string | undefined }): Promise<TagType> {
    if (input.name !== undefined && input.name !== name) {
      throw new ValidationFailed(`name: must match the tag type in the path (${name})`);
    }
    const type = toTagType(name, input);
    if (!(await this.store.replace(type))) throw notFound(name);
    return type;
  }

  /** Tags of this type already on features stay there, as plain data. */
  async delete(name: string): Promise<void> {
    if (!(await this.store.delete(name))) throw notFound(name);
  }
}

function toTagType(name: string, input: TagTypeInput): TagType {
  return { name, description: input.description ?? null, icon: input.icon ?? null };
}

const notFound = (name: string): NotFound => new NotFound(`Could not find tag type with name ${name}`);
