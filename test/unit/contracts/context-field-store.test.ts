import { contextFieldStoreContract } from '../../support/contracts/context-field-store.js';
import { FakeContextFieldStore } from '../../support/fakes/context-field-store.js';

contextFieldStoreContract(() => new FakeContextFieldStore());
