import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const INFRA = new URL('../../infra/', import.meta.url).pathname;

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? sources(join(dir, entry.name)) : entry.name.endsWith('.ts') ? [join(dir, entry.name)] : [],
  );
}

/** Every `acknowledge({ id, reason })` in infra/, with its reason's text joined. */
function acknowledgements(): Array<{ file: string; id: string; reason: string }> {
  return sources(INFRA).flatMap((file) =>
    [...readFileSync(file, 'utf8').matchAll(/acknowledge\(\{\s*id:\s*([^,]+),\s*reason:\s*((?:'[^']*'\s*\+?\s*)+)/g)].map((match) => ({
      file: file.slice(INFRA.length),
      id: (match[1] ?? '').trim(),
      reason: [...(match[2] ?? '').matchAll(/'([^']*)'/g)].map((part) => part[1]).join(''),
    })),
  );
}

describe('cdk-nag acknowledgements', () => {
  it('are few, AwsSolutions rules only, each with a reason that explains it', () => {
    const found = acknowledgements();
    const calls = sources(INFRA).reduce((sum, file) => sum + (readFileSync(file, 'utf8').match(/\.acknowledge\(/g) ?? []).length, 0);

    // Every call was parsed: none hides a reason the regex could not read.
    expect(found).toHaveLength(calls);
    for (const { file, id, reason } of found) {
      expect(id, file).toMatch(/AwsSolutions-/);
      expect(reason.length, `${file} ${id}`).toBeGreaterThan(60);
    }
    expect([...new Set(found.map(({ id }) => id.replace(/^['`]|['`]$/g, '').replace(/\[.*$/, '')))].sort()).toEqual([
      'AwsSolutions-APIG4', 'AwsSolutions-CFR1', 'AwsSolutions-CFR2', 'AwsSolutions-CFR3', 'AwsSolutions-CFR4',
      'AwsSolutions-IAM5', 'AwsSolutions-L1', 'AwsSolutions-S1', 'AwsSolutions-SMG4',
    ]);
  });
});
