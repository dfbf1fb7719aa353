import { readFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import type { Group } from '../../lib/api/route-types.js';
import { localContext } from './api-gateway-event.js';
import type { LocalRuntime } from './runtime.js';

/** Sample events carry placeholders, never real secrets; they are filled in here. */
const PLACEHOLDERS: Record<string, (runtime: LocalRuntime) => string> = {
  '{{ADMIN_TOKEN}}': (runtime) => runtime.generatedAdminToken ?? runtime.config.initAdminApiTokens[0] ?? '',
  '{{UNIQUE}}': () => randomUUID().slice(0, 8),
};

export async function invokeSample(
  runtime: LocalRuntime,
  group: Group,
  eventFile: string,
): Promise<APIGatewayProxyStructuredResultV2> {
  let text = readFileSync(eventFile, 'utf8');
  for (const [placeholder, value] of Object.entries(PLACEHOLDERS)) {
    if (text.includes(placeholder)) text = text.split(placeholder).join(value(runtime));
  }
  const event = JSON.parse(text) as APIGatewayProxyEventV2;
  const result = await runtime.handlers[group](event, localContext(`invoke-${group}`));
  return typeof result === 'string' ? { statusCode: 200, body: result } : result;
}
