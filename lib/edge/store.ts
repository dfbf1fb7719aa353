/** The count of tokens each client address asked `POST /edge/validate` about; `dynamo-store.ts` implements it. */
export interface ValidationCountStore {
  /**
   * Adds `tokens` to the address's count for the minute and answers the new count. The count
   * lapses by itself at `expiresAt` (epoch seconds), the table's TTL.
   */
  add(address: string, minute: number, tokens: number, expiresAt: number): Promise<number>;
}
