import { userSettingsSlice } from '../../user-settings/slice.js';
import type { Composition } from '../composition.js';

/** The splash screens and feedback remembered per person, once per composition. */
export const userSettings = (c: Composition) => userSettingsSlice(c);
