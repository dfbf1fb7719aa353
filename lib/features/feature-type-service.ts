import { NotFound } from '../errors.js';
import { expectedLifetimeDays, FEATURE_TYPES, type FeatureTypeLifetimes } from './model.js';

/** The store of the lifetimes an admin set (dynamo-feature-type-store.ts). */
export interface FeatureTypeStore {
  lifetimes(): Promise<FeatureTypeLifetimes>;
  setLifetime(type: string, days: number | null, actor: string): Promise<void>;
}

export interface FeatureTypeView {
  id: string;
  name: string;
  description: string;
  lifetimeDays: number | null;
}

/** Unleash's feature types, with the expected lifetimes as an admin set them: potentially-stale counts from these. */
export class FeatureTypeService {
  constructor(private readonly store: FeatureTypeStore) {}

  async list(): Promise<FeatureTypeView[]> {
    const lifetimes = await this.store.lifetimes();
    return FEATURE_TYPES.map(({ id, name, description }) => ({ id, name, description, lifetimeDays: expectedLifetimeDays(id, lifetimes) }));
  }

  lifetimes(): Promise<FeatureTypeLifetimes> {
    return this.store.lifetimes();
  }

  /** 0 and null both mean a flag of the type never ages, as Unleash treats them. */
  async setLifetime(id: string, days: number | null, actor: string): Promise<FeatureTypeView> {
    const known = FEATURE_TYPES.find((type) => type.id === id);
    if (!known) throw new NotFound(`The feature type you tried to update ("${id}") does not exist.`);
    await this.store.setLifetime(id, days, actor);
    return { id, name: known.name, description: known.description, lifetimeDays: days };
  }
}
