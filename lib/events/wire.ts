import type { ChangeEvent } from './model.js';

/** An event as Unleash's event log answers it (eventSchema): one action each. */
export interface UnleashEvent {
  /** Our events are keyed by UUID, not by a number: `<uuid>` or, for one of several actions, `<uuid>-<n>`. */
  id: string;
  type: string;
  createdAt: string;
  createdBy: string;
  createdByUserId: null;
  environment: string | null;
  project: string | null;
  featureName: string | null;
  /** The feature's state before and after is not recorded, only what changed (`summary`). */
  data: null;
  preData: null;
  tags: never[];
  label: string;
  summary: string;
}

/** Unleash's event types for the changes a feature event lists (lib/features/changes.ts `featureChanges`). */
const FEATURE_ACTIONS: Record<string, { type: string; label: string; verb: string }> = {
  created: { type: 'feature-created', label: 'Flag created', verb: 'created' },
  deleted: { type: 'feature-deleted', label: 'Flag deleted', verb: 'deleted' },
  archived: { type: 'feature-archived', label: 'Flag archived', verb: 'archived' },
  revived: { type: 'feature-revived', label: 'Flag revived', verb: 'revived' },
  'stale-on': { type: 'feature-stale-on', label: 'Flag marked stale', verb: 'marked as stale' },
  'stale-off': { type: 'feature-stale-off', label: 'Flag no longer stale', verb: 'marked as not stale' },
  metadata: { type: 'feature-metadata-updated', label: 'Flag details updated', verb: 'changed the details of' },
  // Whether tags or dependencies were added or removed is not recorded: the closer of Unleash's two types.
  tags: { type: 'feature-tagged', label: 'Flag tags changed', verb: 'changed the tags of' },
  dependencies: { type: 'feature-dependency-added', label: 'Flag dependencies changed', verb: 'changed the dependencies of' },
  'link-added': { type: 'feature-link-added', label: 'Flag link added', verb: 'added a link to' },
  'link-updated': { type: 'feature-link-updated', label: 'Flag link updated', verb: 'changed a link of' },
  'link-removed': { type: 'feature-link-removed', label: 'Flag link removed', verb: 'removed a link from' },
  completed: { type: 'feature-completed', label: 'Flag completed', verb: 'marked as completed' },
  uncompleted: { type: 'feature-uncompleted', label: 'Flag uncompleted', verb: 'marked as not completed' },
};
const ENVIRONMENT_ACTIONS: Record<string, { type: string; label: string; verb: string }> = {
  enabled: { type: 'feature-environment-enabled', label: 'Flag enabled', verb: 'enabled' },
  disabled: { type: 'feature-environment-disabled', label: 'Flag disabled', verb: 'disabled' },
  // Added, updated and removed strategies are one change here.
  strategies: { type: 'feature-strategy-update', label: 'Flag strategies changed', verb: 'changed the strategies of' },
  variants: { type: 'feature-environment-variants-updated', label: 'Flag variants changed', verb: 'changed the variants of' },
};
const UNKNOWN_ACTION = { type: 'feature-updated', label: 'Flag updated', verb: 'changed' };

/**
 * How many events `unleashEvents` makes of `event`, without making them: counting a project's
 * activity by day reads a year of events on every visit of its status page, and making each
 * one's summaries cost several times the rest of that page's work.
 */
export function unleashEventCount(event: ChangeEvent): number {
  if (event.type !== 'feature-changed' || !event.featureName) return 1;
  return event.changes?.length ? event.changes.length : 1;
}

/**
 * One recorded event as Unleash's event log lists it. A feature event names every change of one
 * write (`enabled:production`, `strategies:production`), where Unleash records an event per
 * action, so it becomes one Unleash event per change, each with its type and environment.
 */
export function unleashEvents(event: ChangeEvent): UnleashEvent[] {
  const base = {
    createdAt: event.createdAt, createdBy: event.createdBy, createdByUserId: null,
    project: event.project ?? null, featureName: event.featureName ?? null,
    data: null, preData: null, tags: [],
  };
  if (event.type !== 'feature-changed' || !event.featureName) {
    const words = event.type.replaceAll('-', ' ');
    const subject = [event.project && `project **${event.project}**`, ...(event.changes ?? []).map((change) => `**${change}**`)].filter(Boolean);
    return [{
      ...base, id: event.id, type: event.type, environment: null,
      label: words.charAt(0).toUpperCase() + words.slice(1),
      summary: `**${event.createdBy}**: ${words}${subject.length > 0 ? ` (${subject.join(', ')})` : ''}`,
    }];
  }
  return featureActions(event).map(({ id, action, environment }) => ({
    ...base,
    id,
    type: action.type,
    environment,
    label: action.label,
    summary: `**${event.createdBy}** ${action.verb} **${event.featureName}**${environment === null ? '' : ` in **${environment}**`}`,
  }));
}

/** What tells the actions `unleashEvents` makes of `event` apart, in the same order, without their labels and summaries. */
export interface UnleashEventKey {
  id: string;
  type: string;
  environment: string | null;
}

/**
 * The id, type and environment of each event `unleashEvents` makes of `event`: a search that
 * filters on them (the dashboard's by type, over every event of the day) makes only the events
 * of its page whole.
 */
export function unleashEventKeys(event: ChangeEvent): UnleashEventKey[] {
  if (event.type !== 'feature-changed' || !event.featureName) return [{ id: event.id, type: event.type, environment: null }];
  return featureActions(event).map(({ id, action, environment }) => ({ id, type: action.type, environment }));
}

function featureActions(event: ChangeEvent) {
  const changes = event.changes?.length ? event.changes : ['updated'];
  return changes.map((change, index) => {
    const [name = change, environment] = change.split(':', 2);
    const action = (environment === undefined ? FEATURE_ACTIONS[name] : ENVIRONMENT_ACTIONS[name]) ?? UNKNOWN_ACTION;
    return { id: changes.length === 1 ? event.id : `${event.id}-${index + 1}`, action, environment: environment ?? null };
  });
}
