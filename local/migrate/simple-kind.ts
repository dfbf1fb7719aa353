import { AdminApiError, type AdminSide } from './http.js';
import { StepSkipped, type Kind, type MigrationContext, type Step } from './model.js';
import { differences } from './normalise.js';

/**
 * A kind whose items are read as one list from each side, keyed by name, compared in a
 * normalised form, and written one request per item: the catalogues (strategy types, context
 * fields, tag types, tags, segments, environments, projects), people and tokens.
 */
export interface SimpleKindSpec<T> {
  name: string;
  /** Every item, by key; undefined when the side has no such route (Unleash OSS has no groups). */
  read(side: AdminSide, context: MigrationContext): Promise<Map<string, T> | undefined>;
  /** The comparable form; items with equal forms are the same. */
  comparable(item: T, context: MigrationContext): unknown;
  /** Items of the source that are not copied, and why (built-in ones, what the target cannot hold). */
  skip?(item: T, context: MigrationContext): string | undefined;
  create(item: T, context: MigrationContext): Promise<void>;
  update?(item: T, existing: T, context: MigrationContext): Promise<void>;
  /** Notes an item both sides hold, for later kinds (a user's id on the target, for group members). */
  remember?(source: T, target: T, context: MigrationContext): void;
  prune?(existing: T, context: MigrationContext): Promise<void>;
  /** Why the target lacking this kind's route means the kind is skipped. */
  missingOnTarget?: string;
  /** Why a create the target answers 404 (no such route: Unleash OSS makes no projects or environments) is a skip. */
  cannotCreate?: string;
}

export function simpleKind<T>(spec: SimpleKindSpec<T>): Kind {
  return {
    name: spec.name,
    async plan(context) {
      const source = await spec.read(context.from, context);
      if (source === undefined) return [{ kind: spec.name, key: '*', action: 'skip', detail: `${context.from.label} has no ${spec.name}` }];
      const target = await spec.read(context.to, context);
      if (target === undefined) {
        if (source.size === 0) return [];
        return [{ kind: spec.name, key: '*', action: 'skip', detail: spec.missingOnTarget ?? `${context.to.label} has no ${spec.name} route` }];
      }
      const steps: Step[] = [];
      for (const [key, item] of source) {
        const skipped = spec.skip?.(item, context);
        if (skipped !== undefined) {
          steps.push({ kind: spec.name, key, action: 'skip', detail: skipped });
          continue;
        }
        const existing = target.get(key);
        if (existing === undefined) {
          steps.push({ kind: spec.name, key, action: 'create', run: () => spec.create(item, context).catch((error) => {
            if (spec.cannotCreate && error instanceof AdminApiError && error.status === 404) throw new StepSkipped(spec.cannotCreate);
            throw error;
          }) });
          continue;
        }
        spec.remember?.(item, existing, context);
        const fields = differences(spec.comparable(item, context), spec.comparable(existing, context));
        if (fields.length === 0) steps.push({ kind: spec.name, key, action: 'same' });
        else if (spec.update === undefined) steps.push({ kind: spec.name, key, action: 'skip', detail: `differs in ${fields.join(', ')}; the target's route cannot change it` });
        else steps.push({ kind: spec.name, key, action: 'update', detail: fields.join(', '), run: () => spec.update!(item, existing, context) });
      }
      if (context.options.prune && spec.prune) {
        for (const [key, existing] of target) {
          if (!source.has(key)) steps.push({ kind: spec.name, key, action: 'prune', run: () => spec.prune!(existing, context) });
        }
      }
      return steps;
    },
  };
}
