import { ExceedsLimit } from '../errors.js';
import { FULL_LIST_MAX_FEATURES, PAGED_FEATURES } from '../limits.js';

/** The refusal of a deprecated full list that would read more features than FULL_LIST_MAX_FEATURES. */
export function refuseFullListPast(count: number, list: string): void {
  if (count <= FULL_LIST_MAX_FEATURES) return;
  throw new ExceedsLimit(
    `${list} lists at most ${FULL_LIST_MAX_FEATURES.toLocaleString('en-US')} features and this instance has ${count.toLocaleString('en-US')}; ` +
      `page through GET ${PAGED_FEATURES} instead (its total counts every match)`,
  );
}
