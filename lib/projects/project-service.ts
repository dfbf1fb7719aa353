import { compareEnvironments, type Environment } from '../environments/model.js';
import type { EnvironmentStore } from '../environments/store.js';
import { Conflict, NotFound, ValidationFailed } from '../errors.js';
import type { Feature } from '../features/model.js';
import { DEFAULT_PROJECT, PROJECT_SETTING_DEFAULTS } from './defaults.js';
import { projectHealth } from './health.js';
import type { FeatureNaming, Project, ProjectMode, ProjectSettings, ProjectSummary } from './model.js';
import { checkFeatureNaming } from './naming.js';
import type { ProjectFeatureReads } from './ports.js';
import type { ProjectStore } from './store.js';
import { activeFeatureCountOf, projectSummaries } from './summaries.js';

/** Settings as a caller sends them: anything left out takes its default. */
export interface ProjectSettingsInput {
  name: string;
  description?: string | null | undefined;
  mode?: ProjectMode | undefined;
  defaultStickiness?: string | undefined;
  featureLimit?: number | null | undefined;
  featureNaming?: Partial<Record<keyof FeatureNaming, string | null | undefined>> | null | undefined;
}

export interface NewProject extends ProjectSettingsInput {
  id: string;
  /** Environment names; all enabled environments when left out. */
  environments?: string[] | undefined;
}

/** One environment as a project sees it (Unleash's project environments list). */
export interface EnvironmentUse {
  environment: Environment;
  /** The project uses it. */
  visible: boolean;
  /** How many of the project's active features are on in it. */
  enabledFeatures: number;
}

export interface ProjectOverview {
  project: Project;
  /** The project's environments, in sort order. */
  environments: Environment[];
  /** Its features that are not archived (or, when asked, those that are). */
  features: Feature[];
  /** Its features that are not archived, whichever are listed. */
  active: Feature[];
  /** All its features, archived ones too (its statistics read them). */
  allFeatures: readonly Feature[];
  health: number;
  /** No member model exists yet (admin tokens only), so this is always 0. */
  members: number;
}

/** Projects: the catalogue the feature services read, and the admin use cases on it. */
export class ProjectService {
  constructor(
    private readonly store: ProjectStore,
    private readonly environments: EnvironmentStore,
    private readonly features: ProjectFeatureReads,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** Every project with its health; `features`, when the caller already read every feature, spares a second read. */
  async list(features?: readonly Feature[]): Promise<ProjectSummary[]> {
    const [stored, all] = await Promise.all([this.store.list(), features ?? this.features.everyFeature()]);
    return projectSummaries(stored, all, this.now());
  }

  /** Active features of every project, from their counts (ADR 14): one Query, no feature read. */
  async activeFeatureCount(): Promise<number> {
    return activeFeatureCountOf(await this.store.list());
  }

  /** The project, or NotFound. */
  async getProject(id: string): Promise<Project> {
    const project = await this.store.get(id);
    if (!project) throw projectNotFound(id);
    return project;
  }

  /**
   * Health always covers the active features, whichever ones are listed. `listed`: the answer
   * shows each listed feature's lifecycle stage, so it is read with the stages SDK metrics wrote.
   */
  async overview(id: string, { archived = false, listed = false } = {}): Promise<ProjectOverview> {
    const project = await this.getProject(id);
    const [environments, ofProject] = await Promise.all([
      this.environmentsOfProject(project),
      listed ? this.features.projectFeaturesWithMetricsStages(project.id) : this.features.projectFeatures(project.id),
    ]);
    const features = ofProject.filter((feature) => feature.archived === archived);
    const active = ofProject.filter((feature) => !feature.archived);
    return { project, environments, features, active, allFeatures: ofProject, health: projectHealth(ofProject, this.now()), members: 0 };
  }

  /** Every environment, whether the project uses it and how many of its features are on there (its copies only, ADR 17). */
  async environmentUse(id: string): Promise<{ project: Project; uses: EnvironmentUse[] }> {
    // One round of reads: a missing project's features are none, and its NotFound is the answer.
    const [project, all, ofProject] = await Promise.all([this.getProject(id), this.listEnvironments(), this.features.projectFeatures(id)]);
    const active = ofProject.filter((feature) => !feature.archived && feature.project === project.id);
    const used = new Set(project.environments);
    const uses = all.map((environment) => ({
      environment,
      visible: used.has(environment.name),
      enabledFeatures: active.filter((feature) => feature.environments[environment.name]?.enabled).length,
    }));
    return { project, uses };
  }

  async create(input: NewProject, actor: string): Promise<Project> {
    const settings = toSettings(input);
    const environments = await this.chooseEnvironments(input.environments);
    const project: Project = {
      id: input.id, ...settings, environments, defaultStrategies: {}, createdAt: this.now().toISOString(), updatedAt: null,
    };
    if (!(await this.store.insert(project, actor))) throw new Conflict(`A project with the id ${input.id} already exists`);
    return project;
  }

  /** Nothing is read after the write: a read failing then would turn a stored change into an error. */
  async update(id: string, input: ProjectSettingsInput, actor: string): Promise<void> {
    const settings = toSettings(input);
    const updatedAt = this.now().toISOString();
    if (!(await this.store.updateSettings(id, settings, updatedAt, actor))) throw projectNotFound(id);
  }

  /**
   * Only an empty project can go: its active features are counted on the count's shards (and the
   * delete is conditional on them, ADR 14), archived ones are looked up, since they would be
   * left without a project.
   */
  async delete(id: string, actor: string): Promise<void> {
    if (id === DEFAULT_PROJECT.id) throw new ValidationFailed('The default project cannot be deleted');
    const remaining = await this.features.projectFeatures(id);
    if (remaining.length > 0) throw hasFeatures(id, remaining.length);
    const outcome = await this.store.deleteIfEmpty(id, actor);
    if (outcome === 'missing') throw projectNotFound(id);
    if (outcome === 'has-features') throw hasFeatures(id);
  }

  async listEnvironments(): Promise<Environment[]> {
    return (await this.environments.list()).sort(compareEnvironments);
  }

  /** The project's environments that exist, in sort order. */
  async environmentsOfProject(project: Project): Promise<Environment[]> {
    const names = new Set(project.environments);
    return (await this.listEnvironments()).filter((environment) => names.has(environment.name));
  }

  private async chooseEnvironments(requested: string[] | undefined): Promise<string[]> {
    const all = await this.listEnvironments();
    if (requested === undefined) {
      const enabled = all.filter((environment) => environment.enabled).map((environment) => environment.name);
      if (enabled.length === 0) throw new ValidationFailed('environments: no environment is enabled; name at least one');
      return enabled;
    }
    const known = new Set(all.map((environment) => environment.name));
    const unknown = requested.filter((name) => !known.has(name));
    if (unknown.length > 0) throw new ValidationFailed(`environments: no environment named ${unknown.join(', ')} exists`);
    const chosen = [...new Set(requested)];
    if (chosen.length === 0) throw new ValidationFailed('environments: You must always have one active environment');
    return chosen;
  }
}

function toSettings(input: ProjectSettingsInput): ProjectSettings {
  const naming = input.featureNaming;
  const featureNaming: FeatureNaming | null =
    naming && (naming.pattern || naming.example || naming.description)
      ? { pattern: naming.pattern || null, example: naming.example || null, description: naming.description || null }
      : null;
  checkFeatureNaming(featureNaming);
  return {
    name: input.name,
    description: input.description ?? null,
    mode: input.mode ?? PROJECT_SETTING_DEFAULTS.mode,
    defaultStickiness: input.defaultStickiness ?? PROJECT_SETTING_DEFAULTS.defaultStickiness,
    featureLimit: input.featureLimit ?? PROJECT_SETTING_DEFAULTS.featureLimit,
    featureNaming,
  };
}

export const projectNotFound = (id: string): NotFound => new NotFound(`No project found with id ${id}`);

function hasFeatures(id: string, count?: number): ValidationFailed {
  const what = count === undefined ? 'features' : `${count} feature${count === 1 ? '' : 's'}`;
  return new ValidationFailed(
    `The project ${id} still has ${what} (archived ones included); move or delete them before deleting the project`,
  );
}
