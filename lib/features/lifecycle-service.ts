import { randomUUID } from 'node:crypto';
import { featureUpdateSchema } from './schemas.js';
import { Conflict, NotFound, PermissionDenied, ValidationFailed } from '../errors.js';
import { refuseFullListPast } from './full-lists.js';
import type { Project } from '../projects/model.js';
import { FeatureAggregates, featureInProject, replaced } from './aggregate.js';
import type { Feature, FeatureCreator, Tag } from './model.js';
import type { FeatureCatalog } from './ports.js';
import { applyJsonPatch, type PatchOperation } from './json-patch.js';
import { checkFeatureName } from './rules/naming.js';
import type { FeatureWrite } from './store.js';

export interface NewFeature {
  name: string;
  type?: string | undefined;
  description?: string | null | undefined;
  impressionData?: boolean | undefined;
  tags?: Tag[] | undefined;
}

export interface FeatureDetails {
  type?: string | undefined;
  description?: string | null | undefined;
  stale?: boolean | undefined;
  impressionData?: boolean | undefined;
}

/**
 * Most features one batch call changes: each is three items of its transaction (the feature, its
 * project's copy, its change event; ADR 17), leaving room for the counts and the revision.
 */
export const BATCH_WRITES = 30;

/** Creating, reading, describing, marking stale, archiving, reviving and deleting features. */
export class FeatureLifecycleService {
  constructor(
    private readonly aggregates: FeatureAggregates,
    private readonly catalog: FeatureCatalog,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async create(projectId: string, input: NewFeature, actor: string, creator?: FeatureCreator): Promise<Feature> {
    const project = await this.catalog.project(projectId);
    checkFeatureName(input.name, project);
    const existing = await this.aggregates.store.get(input.name);
    if (existing) throw nameTaken(existing);
    const tags = await this.newTags(input.tags ?? []);
    const feature: Feature = {
      name: input.name,
      project: project.id,
      type: input.type ?? 'release',
      description: input.description ?? null,
      impressionData: input.impressionData ?? false,
      stale: false,
      archived: false,
      archivedAt: null,
      createdAt: this.now().toISOString(),
      ...(creator ? { createdBy: creator } : {}),
      environments: {},
      tags,
      dependencies: [],
      children: [],
      version: 1,
    };
    return this.aggregates.apply(actor, async () => ({
      commit: {
        writes: [{ before: undefined, after: feature }],
        projectFeatureCounts: { [project.id]: { delta: 1, applyLimit: true } },
      },
      result: feature,
    }));
  }

  /**
   * POST …/features/{featureName}/clone, as Unleash clones: a new feature of the same project
   * with the source's type, description, stale flag and impression data, its strategies (new
   * ids, constraints and segments kept) and variants in each environment, and its parent, which
   * gains the clone as a child in the same transaction. Every environment is off and no tag is
   * copied. `replaceGroupId` makes a strategy's `groupId` the new name, so a gradual rollout of
   * the clone buckets users apart from the source's.
   */
  async clone(
    projectId: string, sourceName: string, input: { name: string; replaceGroupId?: boolean | undefined }, actor: string, creator?: FeatureCreator,
  ): Promise<Feature> {
    const project = await this.catalog.project(projectId);
    checkFeatureName(input.name, project);
    const existing = await this.aggregates.store.get(input.name);
    if (existing) throw nameTaken(existing);
    const createdAt = this.now().toISOString();
    return this.aggregates.apply(actor, async (read) => {
      const source = await featureInProject(projectId, sourceName, read);
      if (source.archived) throw new NotFound(`Feature ${sourceName} is archived`);
      // The clone is the cloner's flag, as Unleash records it; never the source's creator.
      const { createdBy: _sourceCreator, ...cloned } = clonedAs(source, input.name, input.replaceGroupId ?? true, createdAt);
      const clone: Feature = creator ? { ...cloned, createdBy: creator } : cloned;
      const parentWrites: FeatureWrite[] = [];
      for (const dependency of source.dependencies) {
        const parent = await read(dependency.feature);
        if (!parent || parent.archived) continue;
        clone.dependencies.push({ ...dependency });
        parentWrites.push(replaced(parent, { ...parent, children: [...parent.children, clone.name].sort() }));
      }
      return {
        commit: {
          writes: [{ before: undefined, after: clone }, ...parentWrites],
          projectFeatureCounts: { [project.id]: { delta: 1, applyLimit: true } },
        },
        result: clone,
      };
    });
  }

  /** A new feature's tags, once each; their types must exist (they join the tags in use with the feature's write). */
  private async newTags(tags: Tag[]): Promise<Tag[]> {
    for (const [index, tag] of tags.entries()) {
      if (!(await this.catalog.tagTypeExists(tag.type))) throw new ValidationFailed(`tags.${index}.type: Tag type '${tag.type}' does not exist`);
    }
    return [...new Map(tags.map((tag) => [`${tag.type}:${tag.value}`, { type: tag.type, value: tag.value }])).values()];
  }

  /**
   * What creating `name` would answer, without creating it: taken (archived features included),
   * then the project's naming pattern when a project is named (404 for one that does not exist).
   */
  async checkNewName(name: string, projectId: string | null | undefined): Promise<void> {
    const existing = await this.aggregates.store.get(name);
    if (existing) throw nameTaken(existing);
    if (projectId) checkFeatureName(name, await this.catalog.project(projectId));
  }

  /**
   * What archiving `names` would affect (Unleash's archive dialog): whether any has a parent or
   * a child, and which are parents of features left out. Reads only the named features.
   */
  async archiveImpact(names: string[]): Promise<{ hasDeletedDependencies: boolean; parentsWithChildFeatures: string[] }> {
    const named = new Set(names);
    const features = await this.aggregates.store.getMany([...named]);
    return {
      hasDeletedDependencies: features.some((f) => f.dependencies.length > 0 || f.children.length > 0),
      parentsWithChildFeatures: features
        .filter((f) => f.children.some((child) => !named.has(child)))
        .map((f) => f.name)
        .sort(),
    };
  }

  /** A feature of the project that is not archived (404 otherwise, as in Unleash). */
  async get(projectId: string, name: string): Promise<Feature> {
    const feature = await featureInProject(projectId, name, (n) => this.aggregates.store.get(n));
    if (feature.archived) throw new NotFound(`Feature ${name} is archived`);
    return feature;
  }

  async listProject(projectId: string): Promise<{ project: Project; features: Feature[] }> {
    const project = await this.catalog.project(projectId);
    const features = (await this.aggregates.store.listProject(project.id)).filter((f) => !f.archived);
    return { project, features };
  }

  /** E15 (deprecated): every active feature, refused past FULL_LIST_MAX_FEATURES before anything is read. */
  async listActive(): Promise<Feature[]> {
    refuseFullListPast(await this.catalog.activeFeatureCount(), 'GET /api/admin/features');
    return (await this.aggregates.store.listAll()).filter((feature) => !feature.archived);
  }

  async listArchived(projectId?: string): Promise<Feature[]> {
    const all = projectId === undefined ? await this.aggregates.store.listAll() : await this.aggregates.store.listProject(projectId);
    return all.filter((feature) => feature.archived);
  }

  async update(projectId: string, name: string, details: FeatureDetails, actor: string): Promise<Feature> {
    return this.aggregates.apply(actor, async (read) => {
      const before = await this.aggregates.activeFeature(projectId, name, read);
      const write = replaced(before, { ...before, ...definedOnly(details) });
      return { commit: { writes: [write] }, result: write.after };
    });
  }

  /**
   * E9: a JSON Patch over the feature's metadata. Only description, type, stale and
   * impressionData are kept; name and project stay as the URL says; variants have their own
   * endpoints, and archiving has its own (Unleash's archive-by-patch skips its checks).
   */
  async patch(projectId: string, name: string, operations: PatchOperation[], actor: string): Promise<Feature> {
    if (operations.some((op) => op.path.includes('/variants') || ('from' in op && String(op.from).includes('/variants')))) {
      throw new PermissionDenied(
        'UPDATE_FEATURE_VARIANTS',
        `Variants cannot be changed here; use /api/admin/projects/${projectId}/features/${name}/variants`,
      );
    }
    return this.aggregates.apply(actor, async (read) => {
      const before = await this.aggregates.activeFeature(projectId, name, read);
      const patched = applyMetadataPatch(before, operations);
      const write = replaced(before, { ...before, ...patched });
      return { commit: { writes: [write] }, result: write.after };
    });
  }

  /** E5: unknown names are ignored; archived features of the project change too. */
  async markStale(projectId: string, names: string[], stale: boolean, actor: string): Promise<void> {
    await this.aggregates.apply(actor, async (read) => {
      const features = await this.ofProject(projectId, names, read, 'UPDATE_FEATURE');
      const writes = features.filter((f) => f.stale !== stale).map((f) => replaced(f, { ...f, stale }));
      if (writes.length > BATCH_WRITES) throw new ValidationFailed(`features: change at most ${BATCH_WRITES} features per call`);
      return { commit: { writes }, result: undefined };
    });
  }

  /**
   * E6: archives the named features of the project. A parent can only go together with all of
   * its children; an archived child loses its dependency. Nothing is archived when any check fails.
   */
  async archive(projectId: string, names: string[], actor: string): Promise<void> {
    await this.aggregates.apply(actor, async (read) => {
      const features = (await this.ofProject(projectId, names, read, 'DELETE_FEATURE')).filter((f) => !f.archived);
      const archiving = new Set(features.map((f) => f.name));
      const blocked = features.filter((f) => f.children.some((child) => !archiving.has(child)));
      if (blocked.length > 0) {
        throw new PermissionDenied(
          'DELETE_FEATURE',
          `${blocked.map((f) => f.name).join(', ')} cannot be archived: other features depend on them; archive their children with them`,
        );
      }
      const writes = await this.archiveWrites(features, archiving, read);
      if (writes.length > BATCH_WRITES) throw new ValidationFailed(`features: archive at most ${BATCH_WRITES} features per call`);
      return {
        commit: { writes, projectFeatureCounts: { [projectId]: { delta: -features.length, applyLimit: false } } },
        result: undefined,
      };
    });
  }

  /** Reviving switches every environment off, as in Unleash; strategies are kept. */
  async revive(name: string, actor: string): Promise<Feature> {
    return this.aggregates.apply(actor, async (read) => {
      const before = await read(name);
      if (!before?.archived) throw new NotFound(`Could not find an archived feature named ${name}`);
      const write = revived(before);
      return {
        commit: { writes: [write], projectFeatureCounts: { [before.project]: { delta: 1, applyLimit: false } } },
        result: write.after,
      };
    });
  }

  /** The archive page's revive: the named archived features of the project, at once; the others are left alone. */
  async reviveMany(projectId: string, names: string[], actor: string): Promise<void> {
    await this.aggregates.apply(actor, async (read) => {
      const writes = (await this.ofProject(projectId, names, read, 'UPDATE_FEATURE')).filter((f) => f.archived).map(revived);
      if (writes.length > BATCH_WRITES) throw new ValidationFailed(`features: revive at most ${BATCH_WRITES} features per call`);
      return { commit: { writes, projectFeatureCounts: { [projectId]: { delta: writes.length, applyLimit: false } } }, result: undefined };
    });
  }

  /** Deletes an archived feature for good; a feature that is not archived is left alone. */
  async deleteArchived(name: string, actor: string): Promise<void> {
    await this.aggregates.apply(actor, async (read) => {
      const before = await read(name);
      if (!before) throw new NotFound(`Could not find a feature named ${name}`);
      if (!before.archived) return { commit: { writes: [] }, result: undefined };
      return { commit: { writes: [{ before, after: undefined }] }, result: undefined };
    });
  }

  /** The archive page's delete: the named archived features of the project, at once; active ones are left alone. */
  async deleteArchivedMany(projectId: string, names: string[], actor: string): Promise<void> {
    await this.aggregates.apply(actor, async (read) => {
      const archived = (await this.ofProject(projectId, names, read, 'DELETE_FEATURE')).filter((f) => f.archived);
      if (archived.length > BATCH_WRITES) throw new ValidationFailed(`features: delete at most ${BATCH_WRITES} features per call`);
      return { commit: { writes: archived.map((before) => ({ before, after: undefined })) }, result: undefined };
    });
  }

  private async archiveWrites(features: Feature[], archiving: Set<string>, read: (n: string) => Promise<Feature | undefined>) {
    const archivedAt = this.now().toISOString();
    const writes = new Map<string, FeatureWrite>();
    for (const feature of features) {
      writes.set(feature.name, replaced(feature, { ...feature, archived: true, archivedAt, dependencies: [], children: [] }));
    }
    // Parents that stay active forget their archived children.
    for (const feature of features) {
      for (const dependency of feature.dependencies) {
        if (archiving.has(dependency.feature)) continue;
        const pending = writes.get(dependency.feature);
        const parent = pending?.after ?? (await read(dependency.feature));
        if (!parent) continue;
        const after = { ...parent, children: parent.children.filter((child) => child !== feature.name) };
        writes.set(parent.name, pending ? { ...pending, after } : replaced(parent, after));
      }
    }
    return [...writes.values()];
  }

  /** The named features that exist; any that belong to another project refuse the whole call. */
  private async ofProject(
    projectId: string,
    names: string[],
    read: (name: string) => Promise<Feature | undefined>,
    permission: string,
  ): Promise<Feature[]> {
    const found = (await Promise.all([...new Set(names)].map(read))).filter((f): f is Feature => f !== undefined);
    const elsewhere = found.filter((feature) => feature.project !== projectId);
    if (elsewhere.length > 0) {
      throw new PermissionDenied(
        permission,
        `The features ${elsewhere.map((f) => `${f.name} (project ${f.project})`).join(', ')} exist but are not in the project ${projectId}; nothing was changed`,
      );
    }
    return found;
  }
}

/** The source's copy under `name`: off everywhere, its strategies with new ids, no tags and no relations yet. */
function clonedAs(source: Feature, name: string, replaceGroupId: boolean, createdAt: string): Feature {
  const environments = Object.fromEntries(Object.entries(source.environments).map(([env, state]) => [env, {
    enabled: false,
    variants: state.variants,
    strategies: state.strategies.map((strategy) => ({
      ...strategy,
      id: randomUUID(),
      parameters: replaceGroupId && Object.hasOwn(strategy.parameters, 'groupId') ? { ...strategy.parameters, groupId: name } : strategy.parameters,
    })),
  }]));
  return { ...source, name, createdAt, environments, tags: [], dependencies: [], children: [], version: 1 };
}

/** Back from the archive with every environment off, as in Unleash; strategies are kept. */
function revived(before: Feature): { before: Feature; after: Feature } {
  const environments = Object.fromEntries(Object.entries(before.environments).map(([env, state]) => [env, { ...state, enabled: false }]));
  return replaced(before, { ...before, archived: false, archivedAt: null, environments });
}

/** Unleash's words, which do not repeat the name (the dialog shows them under the name field). */
function nameTaken(existing: Feature): Conflict {
  return new Conflict(
    existing.archived
      ? 'An archived flag with that name already exists'
      : 'A flag with that name already exists',
  );
}

function definedOnly(details: FeatureDetails): Partial<Feature> {
  return Object.fromEntries(Object.entries(details).filter(([, value]) => value !== undefined)) as Partial<Feature>;
}

const PATCHABLE = ['description', 'type', 'stale', 'impressionData'] as const;
const patchedFieldsSchema = featureUpdateSchema.pick({ description: true, type: true, stale: true, impressionData: true });

function applyMetadataPatch(feature: Feature, operations: PatchOperation[]): Partial<Feature> {
  const document = {
    name: feature.name, project: feature.project, description: feature.description, type: feature.type,
    stale: feature.stale, impressionData: feature.impressionData, archived: feature.archived,
    createdAt: feature.createdAt, archivedAt: feature.archivedAt,
  };
  const patched = applyJsonPatch(document, operations) as Record<string, unknown>;
  if (patched.archived !== feature.archived) {
    throw new ValidationFailed('archived: archive or revive a feature with its own endpoints, not with a patch');
  }
  const kept = Object.fromEntries(PATCHABLE.map((field) => [field, patched[field]]));
  // The patched fields pass the same schema as a PUT: a patch is no way around its limits.
  const checked = patchedFieldsSchema.safeParse(kept);
  if (!checked.success) throw checked.error;
  if (typeof kept.type !== 'string' || kept.type.length === 0) throw new ValidationFailed('type: must be a non-empty string');
  if (kept.description !== null && typeof kept.description !== 'string') throw new ValidationFailed('description: must be a string or null');
  for (const flag of ['stale', 'impressionData'] as const) {
    if (typeof kept[flag] !== 'boolean') throw new ValidationFailed(`${flag}: must be a boolean`);
  }
  return kept as Partial<Feature>;
}

