import { MaintenanceMode } from '../errors.js';
import { changeEvent } from '../events/model.js';
import { MAINTENANCE_CHECK_INTERVAL_MS, MAINTENANCE_MESSAGE, MAINTENANCE_SETTING_ID } from './model.js';
import type { MaintenanceStore } from './store.js';
import { outsideRequest } from '../request-deadline.js';

/**
 * Maintenance mode: an administrator turns it on, and every change to the admin API is refused
 * until they turn it off (lib/http/router.ts asks `refuseChanges`). The flag is read at most once
 * per MAINTENANCE_CHECK_INTERVAL_MS per container, and only when a change comes in; the
 * container that toggles it knows at once.
 */
export class MaintenanceService {
  private remembered: { enabled: boolean; readAt: number } | undefined;
  private reading: Promise<boolean> | undefined;

  constructor(
    private readonly store: MaintenanceStore,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** The stored flag, read now: the maintenance page shows what is stored. */
  async get(): Promise<{ enabled: boolean }> {
    const enabled = (await this.store.read()) ?? false;
    this.remember(enabled);
    return { enabled };
  }

  /** Recorded as Unleash records it: the setting created the first time, updated afterwards. */
  async set(enabled: boolean, actor: string): Promise<void> {
    const before = await this.store.read();
    const type = before === undefined ? 'setting-created' : 'setting-updated';
    await this.store.write(enabled, changeEvent(type, { changes: [MAINTENANCE_SETTING_ID, `enabled:${enabled}`] }, actor));
    this.remember(enabled);
  }

  /** The flag as this container last read it, read again once it is older than the interval. */
  async isOn(): Promise<boolean> {
    const at = this.now().getTime();
    if (this.remembered && at - this.remembered.readAt < MAINTENANCE_CHECK_INTERVAL_MS) return this.remembered.enabled;
    // Concurrent changes share one read, as no request's (it must not fail them all when the
    // request that started it runs out of time); a failed read is not remembered.
    this.reading ??= outsideRequest(() => this.store.read()).then((stored) => {
      this.remember(stored ?? false);
      return stored ?? false;
    }).finally(() => {
      this.reading = undefined;
    });
    return this.reading;
  }

  async refuseChanges(): Promise<void> {
    if (await this.isOn()) throw new MaintenanceMode(MAINTENANCE_MESSAGE);
  }

  private remember(enabled: boolean): void {
    this.remembered = { enabled, readAt: this.now().getTime() };
  }
}
