import { segmentStoreContract } from '../../support/contracts/segment-store.js';
import { FakeSegmentStore } from '../../support/fakes/segment-store.js';

segmentStoreContract(() => {
  const store = new FakeSegmentStore();
  return { store, putInUse: (id, by) => store.putInUse(id, by) };
});
