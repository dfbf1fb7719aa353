import { Conflict, NotFound, ValidationFailed } from '../errors.js';
import type { Tag } from '../features/model.js';
import type { TagType } from './model.js';
import type { TagStore, TagTypeStore } from './store.js';

export interface TagTypeInput {
  description?: string | null | undefined;
  icon?: string | null | undefined;
}

/** The kinds of tags features may carry, and the tags in use. */
export class TagTypeService {
  constructor(
    private readonly store: TagTypeStore,
    private readonly tags: TagStore,
  ) {}

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
    if (!(await this.store.insert(type))) throw nameTaken(name);
    return type;
  }

  /** What creating the type would answer, without creating it. */
  async checkNew(name: string, input: TagTypeInput): Promise<TagType> {
    if (await this.exists(name)) throw nameTaken(name);
    return toTagType(name, input);
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

  /**
   * The tags created or put on features, by type and value; `type` narrows them to one type.
   * Tags of a deleted type are left out, as Unleash deletes them with it.
   */
  async listTags(type?: string): Promise<Tag[]> {
    const [tags, types] = await Promise.all([this.tags.list(type), this.store.list()]);
    const known = new Set(types.map((tagType) => tagType.name));
    return tags.filter((tag) => known.has(tag.type)).sort((a, b) => a.type.localeCompare(b.type) || a.value.localeCompare(b.value));
  }

  /** POST /api/admin/tags: a tag of a type that exists, once. */
  async createTag(tag: Tag): Promise<Tag> {
    if (!(await this.exists(tag.type))) throw new ValidationFailed(`type: Tag type '${tag.type}' does not exist`);
    if (!(await this.tags.insert(tag))) throw new Conflict(`A tag of type ${tag.type} with the value ${tag.value} already exists`);
    return tag;
  }

  /** Tags of this type already on features stay there, as plain data. */
  async delete(name: string): Promise<void> {
    if (!(await this.store.delete(name))) throw notFound(name);
  }
}

function toTagType(name: string, input: TagTypeInput): TagType {
  return { name, description: input.description ?? null, icon: input.icon ?? null };
}

const nameTaken = (name: string): Conflict => new Conflict(`There already exists a tag-type with the name ${name}`);
const notFound = (name: string): NotFound => new NotFound(`Could not find tag type with name ${name}`);
