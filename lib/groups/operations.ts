import type { OperationsFor } from '../http/operation.js';
import type { groupRoutes } from './routes.js';
import type { GroupService, GroupView } from './service.js';
import { toGroupWire } from './wire.js';

/** User groups (E1, E4). The caller's token name is who created the group, who added members, and who the change events name. */
export const groupOperations = ({ groups, unleashUrl }: { groups: GroupService; unleashUrl: string }): OperationsFor<typeof groupRoutes> => {
  const wire = (view: GroupView) => toGroupWire(view, unleashUrl);
  const input = (body: { name: string; users?: Array<{ user: { id: number } }> | undefined }) => ({
    ...body,
    userIds: (body.users ?? []).map((item) => item.user.id),
  });
  return {
    listGroups: async () => ({ body: { groups: (await groups.list()).map(wire) } }),
    createGroup: async ({ body, caller }) => {
      const created = await groups.create(input(body), caller.tokenName);
      return { body: wire(created), headers: { location: `groups/${created.group.id}` } };
    },
    getGroup: async ({ params }) => ({ body: wire(await groups.get(params.groupId)) }),
    updateGroup: async ({ params, body, caller }) => ({
      body: wire(await groups.update(params.groupId, input(body), caller.tokenName)),
    }),
    deleteGroup: async ({ params, caller }) => {
      await groups.delete(params.groupId, caller.tokenName);
      return {};
    },
  };
};
