import { readFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { basename } from 'node:path';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import type { Group } from '../lib/http/route.js';
import { localContext } from './api-gateway-event.js';
import type { LocalRuntime } from './runtime.js';
import { SAMPLE_SCENARIOS, sampleEvent } from './sample-scenarios.js';

/**
 * Runs one sample event on a group's handler, after the setup steps its scenario names
 * (lib/<resource>/samples.ts), so every scenario works alone, on a fresh store or on one that
 * has seen earlier runs. Sample events carry placeholders, never real secrets or fixed names:
 * `{{UNIQUE}}` is one value per invocation, shared with its setup steps, and ids that setup
 * steps answer (`{{USER_ID}}` …) are filled in from their responses. The file is read as it is
 * (it may have been edited); setup steps are built from their samples.
 */
export async function invokeSample(
  runtime: LocalRuntime,
  group: Group,
  eventFile: string,
): Promise<APIGatewayProxyStructuredResultV2> {
  const values: Record<string, string> = {
    ADMIN_TOKEN: runtime.generatedAdminToken ?? runtime.config.initAdminApiTokens[0] ?? '',
    UNIQUE: randomUUID().slice(0, 8),
  };
  const done = new Set<string>();
  const setUp = async (key: string): Promise<void> => {
    for (const step of SAMPLE_SCENARIOS[key]?.given ?? []) {
      if (done.has(step)) continue;
      done.add(step);
      await setUp(step);
      const sample = SAMPLE_SCENARIOS[step];
      if (!sample) throw new Error(`Setup step ${step} of ${key} is not a sample scenario`);
      const result = await invokeEvent(runtime, sample.route.group, JSON.stringify(sampleEvent(sample)), values);
      if (result.statusCode !== sample.status) {
        throw new Error(`Setup step ${step} answered ${result.statusCode}, not ${sample.status}: ${result.body}`);
      }
      const body = result.body ? (JSON.parse(result.body) as Record<string, unknown>) : {};
      for (const [placeholder, property] of Object.entries(sample.provides ?? {})) {
        values[placeholder] = String(body[property]);
      }
    }
  };
  await setUp(`${group}/${basename(eventFile, '.json')}`);
  return invokeEvent(runtime, group, readFileSync(eventFile, 'utf8'), values);
}

async function invokeEvent(
  runtime: LocalRuntime,
  group: Group,
  eventText: string,
  values: Record<string, string>,
): Promise<APIGatewayProxyStructuredResultV2> {
  const text = eventText.replace(/\{\{([A-Z_]+)\}\}/g, (placeholder, name: string) => values[name] ?? placeholder);
  const event = JSON.parse(text) as APIGatewayProxyEventV2;
  const result = await runtime.handlers[group](event, localContext(`invoke-${group}`));
  return typeof result === 'string' ? { statusCode: 200, body: result } : result;
}
