import type { ChangeEvent } from '../events/model.js';

/** The maintenance flag as stored; `undefined` when nobody has set it yet (off). */
export interface MaintenanceStore {
  read(): Promise<boolean | undefined>;
  /** Writes the flag and its change event in one transaction. */
  write(enabled: boolean, event: ChangeEvent): Promise<void>;
}
