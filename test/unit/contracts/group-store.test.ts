import { groupStoreContract } from '../../support/contracts/group-store.js';
import { FakeGroupStore } from '../../support/fakes/group-store.js';

groupStoreContract(() => {
  const users = new Set<number>();
  return { store: new FakeGroupStore(users), addUser: async (userId) => void users.add(userId) };
});
