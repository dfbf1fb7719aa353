/**
 * Features, copied in bulk: the ones that differ go through the target's feature import (one
 * request per project, environment and 25 features, which the import applies whole or not at
 * all), parents before children; what an import does not carry (stale, archived) follows
 * through the project's bulk routes. An archived feature the target holds is revived first, so
 * the import may write it. A feature is written by one import per environment: a failure between
 * them leaves it updated in some environments, which the report names and a second run finishes.
 */
import { AdminApiError, encode, type AdminSide } from '../http.js';
import type { Kind, MigrationContext, Step } from '../model.js';
import { differences } from '../normalise.js';
import { featureNamesOf, importDocumentOf, readFeatures, type ExportDocument, type FeatureRecord, type SideFeatures } from './feature-records.js';

/**
 * Features per import: small enough that a loaded server writes them well within its request
 * deadline (100 at a time timed out on the 2-core test machine under load), large enough that
 * a few hundred features take a few dozen requests.
 */
const IMPORT_CHUNK = 25;

interface FeaturePlan {
  source: SideFeatures;
  target: SideFeatures;
  environments: string[];
}

/** The plan's reads, kept for the apply of the same run. */
const plans = new WeakMap<MigrationContext, FeaturePlan>();

async function environmentsOf(side: AdminSide): Promise<string[]> {
  const answer = await side.request<{ environments: Array<{ name: string; enabled?: boolean }> }>('GET', '/api/admin/environments');
  return answer.environments.filter((environment) => environment.enabled !== false).map((environment) => environment.name);
}

async function projectIdsOf(side: AdminSide): Promise<string[]> {
  return (await side.request<{ projects: Array<{ id: string }> }>('GET', '/api/admin/projects')).projects.map((project) => project.id);
}

export const features: Kind = {
  name: 'features',
  async plan(context) {
    const targetEnvironments = new Set(await environmentsOf(context.to));
    const environments = (await environmentsOf(context.from)).filter((environment) => targetEnvironments.has(environment));
    const sourceNames = (await Promise.all((await projectIdsOf(context.from)).map((project) => featureNamesOf(context.from, project)))).flat();
    const targetNames = (await Promise.all((await projectIdsOf(context.to)).map((project) => featureNamesOf(context.to, project)))).flat();
    const source = await readFeatures(context.from, sourceNames, environments);
    const target = await readFeatures(context.to, targetNames, environments);
    plans.set(context, { source, target, environments });
    const targetProjects = new Set(await projectIdsOf(context.to));
    const steps: Step[] = [];
    for (const record of source.records.values()) {
      // A dry run has not made the projects it plans to: their features are planned as if it had.
      if (!targetProjects.has(record.project) && !context.options.dryRun) {
        steps.push({ kind: 'features', key: record.name, action: 'skip', detail: `its project ${record.project} is not on the target` });
        continue;
      }
      const existing = target.records.get(record.name);
      if (existing === undefined) {
        steps.push({ kind: 'features', key: record.name, action: 'create' });
        continue;
      }
      const fields = differences(record.comparable, existing.comparable, '', 4);
      steps.push(fields.length === 0
        ? { kind: 'features', key: record.name, action: 'same' }
        : { kind: 'features', key: record.name, action: 'update', detail: fields.join(', ') });
    }
    if (context.options.prune) {
      for (const existing of target.records.values()) {
        if (!source.records.has(existing.name) && !existing.archived) {
          steps.push({
            kind: 'features', key: existing.name, action: 'prune',
            run: () => context.to.request('POST', `/api/admin/projects/${encode(existing.project)}/archive`, { features: [existing.name] }).then(() => undefined),
          });
        }
      }
    }
    return steps;
  },

  async apply(steps, context, done) {
    const plan = plans.get(context);
    if (plan === undefined) throw new Error('features: apply before plan');
    for (const step of steps.filter((s) => s.action === 'prune')) await step.run!().then(() => done(step), (error) => done(step, error));
    const byProject = new Map<string, FeatureRecord[]>();
    for (const step of steps.filter((s) => s.action === 'create' || s.action === 'update')) {
      const record = plan.source.records.get(step.key)!;
      byProject.set(record.project, [...(byProject.get(record.project) ?? []), record]);
    }
    const stepOf = new Map(steps.map((step) => [step.key, step]));
    for (const [project, records] of byProject) {
      await applyProject(project, orderedParentsFirst(records), plan, context, (name, error) => done(stepOf.get(name)!, error));
    }
  },
};

async function applyProject(project: string, records: FeatureRecord[], plan: FeaturePlan, context: MigrationContext, done: (name: string, error?: unknown) => void) {
  const { to } = context;
  for (let start = 0; start < records.length; start += IMPORT_CHUNK) {
    const chunk = records.slice(start, start + IMPORT_CHUNK);
    try {
      for (const record of chunk) {
        if (plan.target.records.get(record.name)?.archived) await to.request('POST', `/api/admin/archive/revive/${encode(record.name)}`);
      }
      for (const environment of plan.environments) {
        await importInParts(to, project, environment, plan.source.exports.get(environment)!, chunk.map((record) => record.name));
      }
      await settleFlags(project, chunk, plan, to);
      for (const record of chunk) done(record.name);
    } catch (error) {
      for (const record of chunk) done(record.name, error);
    }
  }
}

/**
 * One import of these features, or, when the target keeps answering 503 (a request that ran out
 * of time on a loaded server, which wrote nothing), two of half as many each, down to one
 * feature: parents stay before their children, since the halves keep the order.
 */
async function importInParts(to: AdminSide, project: string, environment: string, document: ExportDocument, names: string[]): Promise<void> {
  try {
    await to.request('POST', '/api/admin/features-batch/import', { project, environment, data: importDocumentOf(document, new Set(names)) });
  } catch (error) {
    if (error instanceof AdminApiError && error.status === 503 && names.length > 1) {
      const half = Math.ceil(names.length / 2);
      await importInParts(to, project, environment, document, names.slice(0, half));
      await importInParts(to, project, environment, document, names.slice(half));
      return;
    }
    explainImportRefusal(error);
  }
}

/**
 * Unleash takes an import only from a person or a service account: with an admin API token it
 * answers 400. Said in the words of what to do about it.
 */
function explainImportRefusal(error: unknown): never {
  if (error instanceof AdminApiError && error.status === 400 && /admin token to import/i.test(error.text)) {
    throw new Error('the target refuses the feature import with an admin API token (Unleash does): give --to-token a personal access token of an Admin user (Profile, Personal API tokens)');
  }
  throw error;
}

/** Stale and archived, which an import leaves as they were (the import writes every feature active). */
async function settleFlags(project: string, chunk: FeatureRecord[], plan: FeaturePlan, to: AdminSide) {
  const path = `/api/admin/projects/${encode(project)}`;
  const stale = chunk.filter((record) => record.stale).map((record) => record.name);
  const fresh = chunk.filter((record) => !record.stale && plan.target.records.get(record.name)?.stale).map((record) => record.name);
  if (stale.length > 0) await to.request('POST', `${path}/stale`, { features: stale, stale: true });
  if (fresh.length > 0) await to.request('POST', `${path}/stale`, { features: fresh, stale: false });
  const archived = chunk.filter((record) => record.archived).map((record) => record.name);
  if (archived.length > 0) await to.request('POST', `${path}/archive`, { features: archived });
}

/** Parents before their children, so every import finds the parents its dependencies name. */
function orderedParentsFirst(records: FeatureRecord[]): FeatureRecord[] {
  const parentsOf = (record: FeatureRecord) => (record.comparable.dependencies as Array<{ feature: string }>).map((d) => d.feature);
  const names = new Set(records.map((record) => record.name));
  const placed = new Set<string>();
  const ordered: FeatureRecord[] = [];
  let remaining = records;
  while (remaining.length > 0) {
    const ready = remaining.filter((record) => parentsOf(record).every((parent) => placed.has(parent) || !names.has(parent)));
    const next = ready.length > 0 ? ready : remaining.slice(0, 1);
    for (const record of next) {
      ordered.push(record);
      placed.add(record.name);
    }
    remaining = remaining.filter((record) => !placed.has(record.name));
  }
  return ordered;
}
