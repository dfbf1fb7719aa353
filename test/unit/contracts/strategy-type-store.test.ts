import { strategyTypeStoreContract } from '../../support/contracts/strategy-type-store.js';
import { FakeStrategyTypeStore } from '../../support/fakes/strategy-type-store.js';

strategyTypeStoreContract(() => new FakeStrategyTypeStore());
