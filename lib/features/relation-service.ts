import { NotFound, PermissionDenied, ValidationFailed } from '../errors.js';
import { FeatureAggregates, replaced } from './aggregate.js';
import type { Dependency, Feature, Tag } from './model.js';
import type { FeatureCatalog } from './ports.js';
import type { FeatureWrite } from './store.js';

export interface NewDependency {
  feature: string;
  enabled?: boolean | undefined;
  variants?: string[] | undefined;
}

const refuse = (message: string) => new PermissionDenied('UPDATE_FEATURE_DEPENDENCY', message);

/**
 * One project's features, archived ones too, holding every write acknowledged before the call:
 * the project page's reads bind it to the admin read model once the process holds it (a revision
 * check instead of the project's whole partition), else to the project's copies (ADR 17).
 */
export type ProjectFeatures = (projectId: string) => Promise<readonly Feature[]>;

/** Parent/child dependencies and tags: the changes that touch more than one aggregate or catalogue. */
export class FeatureRelationService {
  constructor(
    private readonly aggregates: FeatureAggregates,
    private readonly catalog: FeatureCatalog,
    private readonly projectFeatures: ProjectFeatures = (projectId) => aggregates.store.listProject(projectId),
  ) {}

  /**
   * Unleash's rules: same project, a parent has no parent, a child has no children, and one
   * parent per child (a new one replaces the old). Child and parents change in one transaction.
   */
  async addDependency(projectId: string, childName: string, input: NewDependency, actor: string): Promise<Dependency> {
    return this.aggregates.apply(actor, async (read) => {
      const child = await this.aggregates.activeFeature(projectId, childName, read);
      if (input.feature === childName) throw refuse('A feature cannot depend on itself');
      const parent = await read(input.feature);
      if (!parent || parent.archived) throw refuse(`No active feature ${input.feature} exists`);
      if (parent.project !== child.project) throw refuse('Parent and child features should be in the same project');
      if (parent.dependencies.length > 0) throw refuse(`Transitive dependency detected: ${parent.name} already has a parent`);
      if (child.children.length > 0) throw refuse(`Transitive dependency detected: ${child.name} already has children`);
      const enabled = input.enabled ?? true;
      const dependency: Dependency = { feature: parent.name, enabled, variants: enabled ? (input.variants ?? []) : [] };
      const writes: FeatureWrite[] = [replaced(child, { ...child, dependencies: [dependency] })];
      const oldParent = child.dependencies[0]?.feature;
      if (oldParent && oldParent !== parent.name) {
        const previous = await read(oldParent);
        if (previous) writes.push(replaced(previous, withoutChild(previous, childName)));
      }
      if (!parent.children.includes(childName)) {
        writes.push(replaced(parent, { ...parent, children: [...parent.children, childName].sort() }));
      }
      return { commit: { writes }, result: dependency };
    });
  }

  /** Removes one parent, or all (`parentName` undefined). Removing what is not there is fine. */
  async removeDependency(projectId: string, childName: string, parentName: string | undefined, actor: string): Promise<void> {
    await this.aggregates.apply(actor, async (read) => {
      const child = await this.aggregates.activeFeature(projectId, childName, read);
      const removed = child.dependencies.filter((d) => parentName === undefined || d.feature === parentName);
      if (removed.length === 0) return { commit: { writes: [] }, result: undefined };
      const writes: FeatureWrite[] = [
        replaced(child, { ...child, dependencies: child.dependencies.filter((d) => !removed.includes(d)) }),
      ];
      for (const { feature } of removed) {
        const parent = await read(feature);
        if (parent) writes.push(replaced(parent, withoutChild(parent, childName)));
      }
      return { commit: { writes }, result: undefined };
    });
  }

  /**
   * Who `childName` may depend on, as Unleash offers them: the other active features of its
   * project that have no parent themselves, by name. Reads that project's features only (ADR 17).
   */
  async parentOptions(projectId: string, childName: string): Promise<string[]> {
    const child = await this.aggregates.activeFeature(projectId, childName);
    const ofProject = await this.projectFeatures(child.project);
    return ofProject
      .filter((f) => f.name !== childName && !f.archived && f.dependencies.length === 0)
      .map((f) => f.name)
      .sort();
  }

  /**
   * The variant names a child may require of `parentName`: its strategies' and environments'
   * variants, by name. A name that is no feature of the project has none, as Unleash answers any
   * name (the admin UI's project page asks for a flag named after the project).
   */
  async parentVariantOptions(projectId: string, parentName: string): Promise<string[]> {
    const parent = await this.aggregates.store.get(parentName);
    if (parent?.project !== projectId) return [];
    const names = Object.values(parent.environments).flatMap((environment) => [
      ...environment.variants.map((variant) => variant.name),
      ...environment.strategies.flatMap((strategy) => strategy.variants.map((variant) => variant.name)),
    ]);
    return [...new Set(names)].sort();
  }

  /**
   * Whether any feature of the project depends on another. Unleash answers for the whole
   * instance; the question is asked for one project's list, so only its features are read (ADR 17).
   * The project and its features are read at once: a missing project's features are none.
   */
  async projectHasDependencies(projectId: string): Promise<boolean> {
    const [project, ofProject] = await Promise.all([this.catalog.project(projectId), this.projectFeatures(projectId)]);
    return ofProject.some((f) => f.project === project.id && !f.archived && f.dependencies.length > 0);
  }

  async tags(featureName: string): Promise<Tag[]> {
    return (await this.tagTarget(featureName, (n) => this.aggregates.store.get(n))).tags;
  }

  /**
   * E13 and the single-tag endpoints: added tags first, then removed ones. Archived features
   * can be tagged; every added tag's type must exist.
   */
  async changeTags(featureName: string, added: Tag[], removed: Tag[], actor: string): Promise<Tag[]> {
    for (const [index, tag] of added.entries()) {
      if (!(await this.catalog.tagTypeExists(tag.type))) {
        throw new ValidationFailed(`addedTags.${index}.type: Tag type '${tag.type}' does not exist`);
      }
    }
    return this.aggregates.apply(actor, async (read) => {
      const before = await this.tagTarget(featureName, read);
      const key = (tag: Tag) => `${tag.type}:${tag.value}`;
      const tags = new Map(before.tags.map((tag) => [key(tag), tag]));
      for (const tag of added) tags.set(key(tag), { type: tag.type, value: tag.value });
      for (const tag of removed) tags.delete(key(tag));
      const next = [...tags.values()];
      const unchanged = next.length === before.tags.length && next.every((tag) => before.tags.some((t) => key(t) === key(tag)));
      if (unchanged) return { commit: { writes: [] }, result: before.tags };
      const write = replaced(before, { ...before, tags: next });
      return { commit: { writes: [write] }, result: next };
    });
  }

  private async tagTarget(name: string, read: (n: string) => Promise<Feature | undefined>): Promise<Feature> {
    const feature = await read(name);
    if (!feature) throw new NotFound('No feature toggle found');
    return feature;
  }
}

function withoutChild(parent: Feature, child: string): Feature {
  return { ...parent, children: parent.children.filter((name) => name !== child) };
}
