import { DynamoFlagHistory } from '../../unknown-flags/dynamo-flag-history.js';
import { unknownFlagSlice } from '../../unknown-flags/slice.js';
import type { Composition } from '../composition.js';

/** The unknown flags' slice, once per composition, reading flag names and change events from the table. */
export const unknownFlags = (c: Composition) => unknownFlagSlice(c, { history: new DynamoFlagHistory(c.store.db, c.store.tableName) });
