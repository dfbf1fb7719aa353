/** What unknown flags read of other resources: which names are flags, and the change events about a name. */
export interface UnknownFlagPorts {
  history: FlagHistory;
}

export interface FlagHistory {
  /** The names among these that are flags, archived ones included (a feature name is unique across both). */
  existing(names: readonly string[]): Promise<Set<string>>;
  /** When the newest change event about each name was recorded (ISO), for those with any. */
  lastEventAt(names: readonly string[]): Promise<Map<string, string>>;
}
