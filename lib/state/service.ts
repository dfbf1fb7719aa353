import type { StateCatalog } from './ports.js';
import { refuseFullListPast } from '../features/full-lists.js';
import { buildState, stateAsYaml, type StateParts } from './state-export.js';

/** E10: reads the whole instance and answers it as JSON data or YAML text. */
export class StateExportService {
  constructor(
    private readonly catalog: StateCatalog,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async export(parts: StateParts, format: 'json' | 'yaml') {
    const now = this.now();
    refuseFullListPast(await this.catalog.activeFeatureCount(), 'GET /api/admin/state/export');
    const [features, strategyTypes, tagTypes, environments, tokens, segments] = await Promise.all([
      this.catalog.allFeatures(), this.catalog.strategyTypes(), this.catalog.tagTypes(),
      this.catalog.environments(), this.catalog.apiTokens(), this.catalog.segments(),
    ]);
    // Project health from the features just read: every feature is read once, not twice.
    const projects = await this.catalog.projects(features);
    // Time to production needs each feature's history since it was created.
    const since = features.reduce((earliest, f) => Math.min(earliest, Date.parse(f.createdAt)), now.getTime());
    const events = parts.projects ? await this.catalog.eventsBetween(new Date(since), now) : [];
    const state = buildState(parts, { features, strategyTypes, projects, tagTypes, environments, tokens, segments, events }, now);
    return format === 'yaml' ? { yaml: stateAsYaml(state) } : { json: state };
  }
}
