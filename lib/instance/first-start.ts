import { defaultContextFields } from '../context-fields/defaults.js';
import type { ContextField } from '../context-fields/model.js';
import type { Environment } from '../environments/model.js';
import { defaultEnvironments, defaultProject } from '../projects/defaults.js';
import type { Project } from '../projects/model.js';
import { DEFAULT_TAG_TYPES } from '../tag-types/defaults.js';
import type { TagType } from '../tag-types/model.js';

/** Everything a fresh install has before anyone calls the API. */
export interface FirstStartData {
  project: Project;
  environments: Environment[];
  contextFields: ContextField[];
  tagTypes: TagType[];
}

/** The seed store port; `dynamo-seed-store.ts` beside it writes it in one transaction. */
export interface SeedStore {
  /**
   * Writes the data together with the seed marker, only if the marker is absent. Answers
   * false when an earlier start already did it.
   */
  plant(data: FirstStartData): Promise<boolean>;
}

export function firstStartData(now: Date): FirstStartData {
  const createdAt = now.toISOString();
  return {
    project: defaultProject(createdAt),
    environments: defaultEnvironments(createdAt),
    contextFields: defaultContextFields(createdAt),
    tagTypes: [...DEFAULT_TAG_TYPES],
  };
}

/**
 * Makes the first start's data exactly once per table. The marker, not the data, records that
 * it happened: a user who later deletes the `simple` tag type or a context field keeps it
 * deleted across restarts and deployments.
 */
export class FirstStart {
  constructor(
    private readonly store: SeedStore,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** Answers true when this call made the data, false when it already existed. */
  ensure(): Promise<boolean> {
    return this.store.plant(firstStartData(this.now()));
  }
}
