import { QueryCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { conditionalWrite } from '../store/dynamo-errors.js';
import { keys, type ItemKey } from '../store/table-design.js';
import type { Feedback, UserUiSettings } from './model.js';
import type { RememberRefusal, UserSettingsStore } from './store.js';

const SPLASH_ATTRIBUTE = 'splash:';
const FEEDBACK_ATTRIBUTE = 'feedback:';

/**
 * A person's splash screens and feedback answers: one item each in the person's own partition,
 * each id an attribute of its own with a count beside them, so a new id is one conditional
 * write that keeps the count within its bound, and GET /api/admin/user reads both with one Query.
 */
export class DynamoUserSettingsStore implements UserSettingsStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async of(userId: number): Promise<UserUiSettings> {
    const { pk } = keys.userUiSettings(userId);
    const { Items = [] } = await this.db.send(new QueryCommand({
      TableName: this.tableName, KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': pk }, ConsistentRead: true,
    }));
    const splash: Record<string, boolean> = {};
    const feedback: Feedback[] = [];
    for (const item of Items) {
      for (const [name, value] of Object.entries(item)) {
        if (name.startsWith(SPLASH_ATTRIBUTE)) splash[name.slice(SPLASH_ATTRIBUTE.length)] = value === true;
        if (name.startsWith(FEEDBACK_ATTRIBUTE)) {
          const answer = value as { neverShow: boolean; given: string | null };
          feedback.push({ userId, feedbackId: name.slice(FEEDBACK_ATTRIBUTE.length), neverShow: answer.neverShow, given: answer.given });
        }
      }
    }
    return { splash, feedback: feedback.sort((a, b) => a.feedbackId.localeCompare(b.feedbackId)) };
  }

  async markSplashSeen(userId: number, splashId: string, limit: number): Promise<RememberRefusal | undefined> {
    return this.remember(keys.userSplashes(userId), `${SPLASH_ATTRIBUTE}${splashId}`, true, limit);
  }

  async putFeedback(feedback: Feedback, limit: number): Promise<RememberRefusal | undefined> {
    const { userId, feedbackId, neverShow, given } = feedback;
    return this.remember(keys.userFeedback(userId), `${FEEDBACK_ATTRIBUTE}${feedbackId}`, { neverShow, given }, limit);
  }

  /** Replaces a remembered value, or adds a new one while the count is below the limit. */
  private async remember(key: ItemKey, attribute: string, value: unknown, limit: number): Promise<RememberRefusal | undefined> {
    const names = { '#value': attribute };
    const replaced = await conditionalWrite(() => this.db.send(new UpdateCommand({
      TableName: this.tableName, Key: key, UpdateExpression: 'SET #value = :value', ConditionExpression: 'attribute_exists(#value)',
      ExpressionAttributeNames: names, ExpressionAttributeValues: { ':value': value },
    })));
    if (replaced) return undefined;
    const added = await conditionalWrite(() => this.db.send(new UpdateCommand({
      TableName: this.tableName, Key: key, UpdateExpression: 'SET #value = :value ADD rememberedCount :one',
      ConditionExpression: 'attribute_exists(#value) OR attribute_not_exists(rememberedCount) OR rememberedCount < :limit',
      ExpressionAttributeNames: names, ExpressionAttributeValues: { ':value': value, ':one': 1, ':limit': limit },
    })));
    return added ? undefined : 'limit';
  }
}
