import { environmentStoreContract } from '../../support/contracts/environment-store.js';
import { FakeEnvironmentStore } from '../../support/fakes/environment-store.js';

environmentStoreContract(() => new FakeEnvironmentStore());
