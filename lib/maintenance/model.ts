/** Unleash's message for a change refused in maintenance mode, word for word: scripts match on it. */
export const MAINTENANCE_MESSAGE = 'Unleash is currently in maintenance mode.';

/**
 * How long a container trusts the flag it last read: a change made on another container holds
 * on every container within this time (on the one that made it, at once). Unleash keeps its own
 * reading a minute; the flag is read only when a change comes in, never on reads or SDK calls.
 */
export const MAINTENANCE_CHECK_INTERVAL_MS = 10_000;

/** The setting's id in Unleash's settings table, which its change events name. */
export const MAINTENANCE_SETTING_ID = 'maintenance.mode';
