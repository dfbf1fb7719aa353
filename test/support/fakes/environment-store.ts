import type { Environment } from '../../../lib/environments/model.js';
import type { EnvironmentStore } from '../../../lib/environments/store.js';
import { FakeNamedItems } from './named-items.js';

/** EnvironmentStore in memory; test/support/contracts/environment-store.ts keeps it honest. */
export class FakeEnvironmentStore extends FakeNamedItems<Environment> implements EnvironmentStore {}
