import type { GroupWire } from './schemas.js';
import type { GroupView } from './service.js';
import { toUserWire } from '../users/wire.js';

/**
 * Members whose user was deleted meanwhile are left out. Groups hold no project roles here, so
 * `projects` is empty.
 */
export function toGroupWire({ group, users }: GroupView, unleashUrl: string): GroupWire {
  const members = group.members.flatMap((member) => {
    const user = users.get(member.userId);
    return user ? [{ joinedAt: member.joinedAt, createdBy: member.createdBy, user: toUserWire(user, unleashUrl) }] : [];
  });
  return {
    id: group.id,
    name: group.name,
    description: group.description,
    mappingsSSO: group.mappingsSSO,
    rootRole: group.rootRole,
    createdBy: group.createdBy,
    createdAt: group.createdAt,
    projects: [],
    userCount: members.length,
    users: members,
  };
}
