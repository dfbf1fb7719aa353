import type { ContextField } from '../../../lib/context-fields/model.js';
import type { ContextFieldStore } from '../../../lib/context-fields/store.js';
import { FakeNamedItems } from './named-items.js';

/** ContextFieldStore in memory; test/support/contracts/context-field-store.ts keeps it honest. */
export class FakeContextFieldStore extends FakeNamedItems<ContextField> implements ContextFieldStore {}
