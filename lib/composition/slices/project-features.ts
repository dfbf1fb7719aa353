import type { Feature } from '../../features/model.js';
import type { Composition } from '../composition.js';
import { featureReadModel } from '../read-model.js';
import { featureStore } from '../stores.js';

/**
 * One project's features, archived ones too, in name order, as the project page, its status and
 * its statistics read them. Once this process holds the admin read model, from it: a revision
 * check and what changed since, where the project's partition is a thousand items (a megabyte or
 * more) read again on every visit. Before that, from the project's own partition (ADR 17), so a
 * cold container reads the project only. Both hold every write acknowledged before the call,
 * except the lifecycle stages SDK metrics write, which move no revision: the read model shows
 * them from the next change, so a reader that answers stages reads the partition
 * (`featureStore.listProject`). The features may be the read model's own: callers must not change them.
 */
export async function projectFeaturesOf(c: Composition, projectId: string): Promise<readonly Feature[]> {
  const readModel = c.once(featureReadModel);
  if (!readModel.isWarm()) return c.once(featureStore).listProject(projectId);
  // The partition lists its items by key, `FEATURE#<name>`: the same order by name's code units.
  return (await readModel.everyFeature())
    .filter((feature) => feature.project === projectId)
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}
