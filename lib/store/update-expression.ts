/**
 * `SET #a = :a, #b = :b` for a plain object of attribute values. Every name goes through a
 * placeholder, so reserved words (`name`, `mode`, `type` …) need no special care.
 */
export function setAttributes(values: Record<string, unknown>): {
  UpdateExpression: string;
  ExpressionAttributeNames: Record<string, string>;
  ExpressionAttributeValues: Record<string, unknown>;
} {
  const entries = Object.entries(values).filter(([, value]) => value !== undefined);
  return {
    UpdateExpression: `SET ${entries.map(([name]) => `#${name} = :${name}`).join(', ')}`,
    ExpressionAttributeNames: Object.fromEntries(entries.map(([name]) => [`#${name}`, name])),
    ExpressionAttributeValues: Object.fromEntries(entries.map(([name, value]) => [`:${name}`, value])),
  };
}
