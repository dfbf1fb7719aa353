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
