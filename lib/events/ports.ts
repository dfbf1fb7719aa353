/** What the event log reads of other resources: nothing; every store records its changes' events in the table. */
export type EventPorts = Record<never, never>;
