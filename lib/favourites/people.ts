import type { FeatureCreator } from '../features/model.js';
import { imageUrlOf, type User } from '../users/model.js';

/**
 * Unleash records a flag an API token created as made by its admin-token user (id -42), and
 * lists that user among a project's flag creators by this name.
 */
export const TOKEN_CREATOR: FeatureCreator = {
  id: -42,
  name: 'Unleash Admin Token User',
  imageUrl: imageUrlOf({ id: -42, email: null, username: 'Unleash Admin Token User' }),
};

/** A person as Unleash names a creator: their name, else username, else e-mail. */
export function creatorOfUser(user: Pick<User, 'id' | 'name' | 'username' | 'email'>): FeatureCreator {
  return { id: user.id, name: user.name || user.username || user.email || `user ${user.id}`, imageUrl: imageUrlOf(user) };
}
