import { tagTypeStoreContract } from '../../support/contracts/tag-type-store.js';
import { FakeTagTypeStore } from '../../support/fakes/tag-type-store.js';

tagTypeStoreContract(() => new FakeTagTypeStore());
