import type { Environment } from '../environments/model.js';
import type { ChangeEvent } from '../events/model.js';
import type { Feature } from '../features/model.js';
import type { ProjectSummary } from '../projects/project-service.js';
import type { Segment } from '../segments/model.js';
import type { StrategyType } from '../strategies/model.js';
import type { TagType } from '../tag-types/model.js';
import type { ApiToken } from '../tokens/model.js';
import { buildState, stateAsYaml, type StateParts } from './state-export.js';

export interface StateReaders {
  features: { listAll(): Promise<Feature[]> };
  strategyTypes: { list(): Promise<StrategyType[]> };
  projects: { list(): Promise<ProjectSummary[]> };
  tagTypes: { list(): Promise<TagType[]> };
  environments: { list(): Promise<Environment[]> };
  apiTokens: { list(): Promise<ApiToken[]> };
  segmentStore: { list(): Promise<Segment[]> };
  events: { between(from: Date, to: Date): Promise<ChangeEvent[]> };
}

/** E10: reads the whole instance and answers it as JSON data or YAML text. */
export class StateExportService {
  constructor(
    private readonly readers: StateReaders,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async export(parts: StateParts, format: 'json' | 'yaml') {
    const now = this.now();
    const [features, strategyTypes, projects, tagTypes, environments, tokens, segments] = await Promise.all([
      this.readers.features.listAll(), this.readers.strategyTypes.list(), this.readers.projects.list(),
      this.readers.tagTypes.list(), this.readers.environments.list(), this.readers.apiTokens.list(),
      this.readers.segmentStore.list(),
    ]);
    // Time to production needs each feature's history since it was created.
    const since = features.reduce((earliest, f) => Math.min(earliest, Date.parse(f.createdAt)), now.getTime());
    const events = parts.projects ? await this.readers.events.between(new Date(since), now) : [];
    const state = buildState(parts, { features, strategyTypes, projects, tagTypes, environments, tokens, segments, events }, now);
    return format === 'yaml' ? { yaml: stateAsYaml(state) } : { json: state };
  }
}
