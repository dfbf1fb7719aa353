import { readFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { basename, dirname, join } from 'node:path';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import type { Group } from '../../lib/http/route.js';
import { localContext } from './api-gateway-event.js';
import type { LocalRuntime } from './runtime.js';
import { SAMPLE_SCENARIOS } from './sample-scenarios.js';

/**
 * Runs one sample event on a group's handler, after the setup steps its scenario names
 * (scripts/local/sample-scenarios.ts), so every scenario works alone, on a fresh store or on
 * one that has seen earlier runs. Sample events carry placeholders, never real secrets or
 * fixed names: `{{UNIQUE}}` is one value per invocation, shared with its setup steps, and ids
 * that setup steps answer (`{{USER_ID}}` …) are filled in from their responses.
 */
export async function invokeSample(
  runtime: LocalRuntime,
  group: Group,
  eventFile: string,
): Promise<APIGatewayProxyStructuredResultV2> {
  const eventsDir = dirname(dirname(eventFile));
  const values: Record<string, string> = {
    ADMIN_TOKEN: runtime.generatedAdminToken ?? runtime.config.initAdminApiTokens[0] ?? '',
    UNIQUE: randomUUID().slice(0, 8),
  };
  const done = new Set<string>();
  const setUp = async (scenario: string): Promise<void> => {
    for (const step of SAMPLE_SCENARIOS[scenario]?.given ?? []) {
      const key = `${step}.json`;
      if (done.has(key)) continue;
      done.add(key);
      await setUp(key);
      const result = await invokeEvent(runtime, key.split('/')[0] as Group, join(eventsDir, key), values);
      const expected = SAMPLE_SCENARIOS[key];
      if (!expected || result.statusCode !== expected.status) {
        throw new Error(`Setup step ${key} answered ${result.statusCode}, not ${expected?.status ?? 'a listed status'}: ${result.body}`);
      }
      const body = result.body ? (JSON.parse(result.body) as Record<string, unknown>) : {};
      for (const [placeholder, property] of Object.entries(expected.provides ?? {})) values[placeholder] = String(body[property]);
    }
  };
  await setUp(`${group}/${basename(eventFile)}`);
  return invokeEvent(runtime, group, eventFile, values);
}

async function invokeEvent(
  runtime: LocalRuntime,
  group: Group,
  eventFile: string,
  values: Record<string, string>,
): Promise<APIGatewayProxyStructuredResultV2> {
  const text = readFileSync(eventFile, 'utf8').replace(/\{\{([A-Z_]+)\}\}/g, (placeholder, name: string) => values[name] ?? placeholder);
  const event = JSON.parse(text) as APIGatewayProxyEventV2;
  const result = await runtime.handlers[group](event, localContext(`invoke-${group}`));
  return typeof result === 'string' ? { statusCode: 200, body: result } : result;
}
