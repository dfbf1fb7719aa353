import type { Feature } from '../features/model.js';
import { ROOT_ROLE } from '../roles/model.js';
import { imageUrlOf, type User } from '../users/model.js';

/**
 * The project every person belongs to. Unleash keeps a root role as a role on the `default`
 * project, so every user's dashboard and profile name it; no other project membership is kept
 * here (rights come from root roles), so the rest of a person's projects are the ones they starred.
 */
export const DEFAULT_PROJECT = 'default';

/** Unleash lists at most this many of a person's flags. */
export const PERSONAL_FLAGS = 100;

/** The flags a person starred or created, active ones only, newest first (Unleash's personal flags). */
export function personalFlags(features: readonly Feature[], userId: number, favourites: ReadonlySet<string>) {
  return features
    .filter((feature) => !feature.archived && (favourites.has(feature.name) || feature.createdBy?.id === userId))
    .sort((a, b) => b.createdAt.localeCompare(a.createdAt) || a.name.localeCompare(b.name))
    .slice(0, PERSONAL_FLAGS)
    .map((feature) => ({ name: feature.name, type: feature.type, project: feature.project }));
}

/** Unleash's administrators to contact: users whose own root role is Admin, with the fields they have. */
export function adminsOf(users: readonly User[]) {
  return users
    .filter((user) => user.rootRole === ROOT_ROLE.Admin)
    .sort((a, b) => a.id - b.id)
    .map((user) => ({
      id: user.id,
      ...(user.name ? { name: user.name } : {}),
      ...(user.username ? { username: user.username } : {}),
      ...(user.email ? { email: user.email } : {}),
      imageUrl: imageUrlOf(user),
    }));
}

/** Unleash's window averages: the newest four scores, and the four before, once there are that many. */
export function healthWindows(newestFirst: readonly number[]) {
  const average = (scores: readonly number[]) => Math.round(scores.reduce((sum, score) => sum + score, 0) / scores.length);
  return {
    avgHealthCurrentWindow: newestFirst.length >= 4 ? average(newestFirst.slice(0, 4)) : null,
    avgHealthPastWindow: newestFirst.length >= 8 ? average(newestFirst.slice(4, 8)) : null,
  };
}
