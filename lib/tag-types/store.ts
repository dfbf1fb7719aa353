import type { Tag } from '../features/model.js';
import type { TagType } from './model.js';

/** The tag-type store port; `dynamo-store.ts` beside it implements it on DynamoDB. */
export interface TagTypeStore {
  list(): Promise<TagType[]>;
  get(name: string): Promise<TagType | undefined>;
  /** Answers false when the name is taken. */
  insert(type: TagType): Promise<boolean>;
  /** Answers false when the type does not exist. */
  replace(type: TagType): Promise<boolean>;
  /** Answers false when the type does not exist. */
  delete(name: string): Promise<boolean>;
}

/**
 * The tags in use, as Unleash keeps them: a tag exists once it is created or first put on a
 * feature (the feature store writes it in that feature's transaction), and stays when features
 * drop it. One partition, so listing them is one Query.
 */
export interface TagStore {
  /** Every tag, or those of one type. */
  list(type?: string): Promise<Tag[]>;
  /** Answers false when the tag exists. */
  insert(tag: Tag): Promise<boolean>;
}
