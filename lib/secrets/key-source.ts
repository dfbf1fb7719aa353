import type { AppConfig } from '../config.js';
import { readSecretString } from './secret-source.js';
import { noKeyConfigured, type KeyMaterialSource } from './secret-box.js';

/**
 * Where the key material for sealed secrets comes from: `SECRET_KEY` locally (the local runtime
 * generates and keeps one), the Secrets Manager secret named by `SECRET_KEY_ARN` in the cloud,
 * read once per cold start, so no key ever sits in a function's environment.
 */
export function keyMaterialSource(config: Pick<AppConfig, 'secretKey' | 'secretKeyArn'>): KeyMaterialSource {
  if (config.secretKey) {
    const key = config.secretKey;
    return () => Promise.resolve(key);
  }
  if (config.secretKeyArn) {
    const arn = config.secretKeyArn;
    return () => readSecretString(arn);
  }
  return noKeyConfigured;
}
