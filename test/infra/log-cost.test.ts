import { describe, expect, it } from 'vitest';
import { GROUP_TAG } from '../../infra/constructs/group-functions.js';
import { resourcesOf, synthesizeStack } from './synth.js';
import { SDK_GROUPS, type Group } from '../../lib/http/route.js';

// Lambda writes a START and a REPORT line for every invocation at its default system log level.
// On the SDK poll path (173 million invocations a month for 1,000 SDK instances polling every
// 15 s) that is about 80 GB of log ingestion, some $40 a month (docs/cost.md): the client
// function leaves them out; errors, timeouts and failed starts are still logged.
describe('platform log lines', () => {
  const functions = resourcesOf(synthesizeStack(), 'AWS::Lambda::Function');
  const groupOf = (props: Record<string, any>) =>
    (props.Tags as Array<{ Key: string; Value: string }> | undefined)?.find((tag) => tag.Key === GROUP_TAG)?.Value;

  it('are left out on the SDK and frontend functions only', () => {
    const levels = Object.fromEntries(
      functions.filter(([, fn]) => groupOf(fn.Properties)).map(([, fn]) => [groupOf(fn.Properties), fn.Properties.LoggingConfig?.SystemLogLevel ?? 'INFO']),
    );
    expect(levels.client).toBe('WARN');
    expect(levels.frontend).toBe('WARN');
    expect(Object.entries(levels).filter(([group, level]) => !SDK_GROUPS.has(group as Group) && level !== 'INFO')).toEqual([]);
    expect(Object.keys(levels).length).toBeGreaterThan(5);
  });
});
