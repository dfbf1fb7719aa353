import * as z from 'zod';
import { variantListSchema } from './variant-schemas.js';
import { NotFound } from '../errors.js';
import { FeatureAggregates, featureInProject, replaced } from './aggregate.js';
import { environmentOf, type Feature, type Variant } from './model.js';
import type { FeatureCatalog } from './ports.js';
import { withEnvironment } from './rules/environments.js';
import { applyJsonPatch, type PatchOperation } from './json-patch.js';
import { normaliseVariants } from './rules/variants.js';
import type { FeatureEnvironmentRef } from './strategy-service.js';

/** Feature-level variants, per environment and across all of a feature's environments (E12). */
export class FeatureVariantService {
  constructor(
    private readonly aggregates: FeatureAggregates,
    private readonly catalog: FeatureCatalog,
  ) {}

  async get(ref: FeatureEnvironmentRef): Promise<Variant[]> {
    const feature = await this.variantTarget(ref.projectId, ref.featureName, (n) => this.aggregates.store.get(n));
    await this.environmentOfProject(ref);
    return environmentOf(feature, ref.environment).variants;
  }

  async replace(ref: FeatureEnvironmentRef, variants: Variant[], actor: string): Promise<Variant[]> {
    return this.change(ref, actor, () => variants);
  }

  /** Patches one environment's list atomically. */
  async patch(ref: FeatureEnvironmentRef, operations: PatchOperation[], actor: string): Promise<Variant[]> {
    return this.change(ref, actor, (current) => patchVariants(current, operations));
  }

  /**
   * E12: the same patch applied to each environment's own list, in environment order, written
   * in one transaction (the interface allows a half-applied result; we never leave one).
   * Answers the first environment's result, as Unleash does.
   */
  async patchAllEnvironments(projectId: string, featureName: string, operations: PatchOperation[], actor: string): Promise<Variant[]> {
    return this.aggregates.apply(actor, async (read) => {
      const before = await this.variantTarget(projectId, featureName, read);
      const project = await this.catalog.project(projectId);
      const environments = (await this.catalog.environmentsOf(project)).map((environment) => environment.name);
      let after = before;
      const results: Variant[][] = [];
      for (const environment of environments) {
        const variants = normaliseVariants(patchVariants(environmentOf(after, environment).variants, operations));
        results.push(variants);
        after = withEnvironment(after, environment, (state) => ({ ...state, variants }));
      }
      return { commit: { writes: [replaced(before, after)] }, result: results[0] ?? [] };
    });
  }

  /** One list for each named environment of the project, in one write; answers the list as stored. */
  async replaceInEnvironments(projectId: string, featureName: string, environments: string[], variants: Variant[], actor: string): Promise<Variant[]> {
    return this.aggregates.apply(actor, async (read) => {
      const before = await this.variantTarget(projectId, featureName, read);
      for (const environment of environments) await this.environmentOfProject({ projectId, featureName, environment });
      const normalised = normaliseVariants(variants);
      const after = environments.reduce((feature, environment) => withEnvironment(feature, environment, (state) => ({ ...state, variants: normalised })), before);
      return { commit: { writes: [replaced(before, after)] }, result: normalised };
    });
  }

  private async change(ref: FeatureEnvironmentRef, actor: string, compute: (current: Variant[]) => Variant[]): Promise<Variant[]> {
    return this.aggregates.apply(actor, async (read) => {
      const before = await this.variantTarget(ref.projectId, ref.featureName, read);
      await this.environmentOfProject(ref);
      const variants = normaliseVariants(compute(environmentOf(before, ref.environment).variants));
      const after = withEnvironment(before, ref.environment, (state) => ({ ...state, variants }));
      return { commit: { writes: [replaced(before, after)] }, result: variants };
    });
  }

  /** Unknown and archived features are both 404 here, as in Unleash. */
  private async variantTarget(projectId: string, name: string, read: (n: string) => Promise<Feature | undefined>): Promise<Feature> {
    const feature = await featureInProject(projectId, name, read);
    if (feature.archived) throw new NotFound(`Could not find feature toggle with name ${name}`);
    return feature;
  }

  private async environmentOfProject(ref: FeatureEnvironmentRef): Promise<void> {
    const project = await this.catalog.project(ref.projectId);
    if (!project.environments.includes(ref.environment)) {
      throw new NotFound(`Could not find environment ${ref.environment} for feature: ${ref.featureName}`);
    }
  }
}

/** Applies a JSON Patch to a variant list and checks the result as if it had been sent whole. */
function patchVariants(current: Variant[], operations: PatchOperation[]): Variant[] {
  const parsed = variantListSchema.safeParse(applyJsonPatch(current, operations));
  if (!parsed.success) throw parsed.error as z.ZodError;
  return parsed.data as Variant[];
}
