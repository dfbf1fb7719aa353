import type { Environment } from '../environments/model.js';
import type { Feature, FeatureViewContext } from './model.js';
import type { FeatureCatalog, LastSeenReader } from './ports.js';

/** Gathers view contexts, reading each project's environments once per call. */
export class FeatureViews {
  constructor(
    private readonly catalog: FeatureCatalog,
    private readonly lastSeen: LastSeenReader,
  ) {}

  /** The context of one feature of `projectId` (NotFound when the project is missing). */
  async contextFor(projectId: string, featureName: string): Promise<FeatureViewContext> {
    const project = await this.catalog.project(projectId);
    const [environments, lastSeen] = await Promise.all([
      this.catalog.environmentsOf(project),
      this.lastSeen.forFeature(featureName),
    ]);
    return { environments, lastSeen };
  }

  /** Contexts for many features at once (lists), in the features' order. */
  async contextsFor(features: Feature[]): Promise<FeatureViewContext[]> {
    const lastSeen = features.length > 0 ? await this.lastSeen.forAll() : new Map<string, Record<string, string>>();
    const environmentsByProject = new Map<string, Promise<Environment[]>>();
    const environmentsOf = (projectId: string) => {
      let pending = environmentsByProject.get(projectId);
      if (!pending) {
        pending = this.catalog.project(projectId).then(
          (project) => this.catalog.environmentsOf(project),
          () => [] as Environment[],
        );
        environmentsByProject.set(projectId, pending);
      }
      return pending;
    };
    return Promise.all(
      features.map(async (feature) => ({
        environments: await environmentsOf(feature.project),
        lastSeen: lastSeen.get(feature.name) ?? {},
      })),
    );
  }
}
