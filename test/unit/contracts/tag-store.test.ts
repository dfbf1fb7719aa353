import { tagStoreContract } from '../../support/contracts/tag-store.js';
import { FakeTagStore } from '../../support/fakes/tag-store.js';

tagStoreContract(() => new FakeTagStore());
