/** The instance's identity, created once on first use. */
export interface InstanceStore {
  /** Answers the stored instance id, storing `candidate` first if there is none yet. */
  instanceId(candidate: string): Promise<string>;
}
