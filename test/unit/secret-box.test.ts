import { describe, expect, it } from 'vitest';
import { noKeyConfigured, SecretBox } from '../../lib/secrets/secret-box.js';

const box = (material = 'a'.repeat(32)) => new SecretBox(() => Promise.resolve(material));

describe('SecretBox', () => {
  it('opens what it sealed, and seals the same text differently each time', async () => {
    const first = await box().seal('client-secret', 'oidc-client-secret');
    const second = await box().seal('client-secret', 'oidc-client-secret');

    expect(first).toMatch(/^v1\.[A-Za-z0-9_-]+$/);
    expect(first).not.toBe(second);
    expect(first).not.toContain('client-secret');
    expect(await box().open(first, 'oidc-client-secret')).toBe('client-secret');
  });

  it('refuses a changed value, another purpose and another key', async () => {
    const sealed = await box().seal('client-secret', 'oidc-client-secret');
    // The second-to-last character carries six data bits whatever the length, so changing it
    // always changes the sealed bytes (it used to test the last character and replace another,
    // leaving the value unchanged one time in 64).
    const at = sealed.length - 2;
    const tampered = `${sealed.slice(0, at)}${sealed[at] === 'A' ? 'B' : 'A'}${sealed.slice(at + 1)}`;
    expect(tampered).not.toBe(sealed);

    await expect(box().open(tampered, 'oidc-client-secret')).rejects.toThrow();
    await expect(box().open(sealed, 'another-field')).rejects.toThrow();
    await expect(box('b'.repeat(32)).open(sealed, 'oidc-client-secret')).rejects.toThrow();
    await expect(box().open('plain text', 'oidc-client-secret')).rejects.toThrow(/Not a sealed secret/);
  });

  it('fails with a clear reason when no key is configured, and asks again next time', async () => {
    let calls = 0;
    const flaky = new SecretBox(() => (calls++ === 0 ? noKeyConfigured() : Promise.resolve('c'.repeat(32))));

    await expect(flaky.seal('x', 'p')).rejects.toThrow(/SECRET_KEY/);
    await expect(flaky.seal('x', 'p')).resolves.toMatch(/^v1\./);
  });
});
