import type { StatisticsCounts } from './statistics.js';
import type { LoginSettings, MaintenanceSetting, OriginsSetting } from './ui-config.js';

/** What the instance's own endpoints read of other resources (GET /api/admin/ui-config). */
export interface InstancePorts {
  /** Which ways to log in are open. */
  logins: LoginSettings;
  /** Where browsers may call the Frontend API from. */
  frontendOrigins: OriginsSetting;
  /** Whether maintenance mode is on: the UI shows its banner and hides what would change something. */
  maintenance: MaintenanceSetting;
  /** The counts Admin settings → Instance stats shows. */
  statistics: StatisticsCounts;
}
