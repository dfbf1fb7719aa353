import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/** Answers the configured key material (`SECRET_KEY`, or the secret behind `SECRET_KEY_ARN`). */
export type KeyMaterialSource = () => Promise<string>;

const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;
const SALT = 'serverless-toggles/secret-box';

/**
 * Seals secrets that must be stored but not readable from the table (the OIDC client secret):
 * AES-256-GCM with a random IV. Each purpose gets its own key, derived with HKDF from the one
 * configured key material, and the purpose is also bound as additional data, so a value sealed
 * for one field cannot be replayed into another. A sealed value reads `v1.<base64url>`.
 */
export class SecretBox {
  private readonly keys = new Map<string, Promise<Buffer>>();

  constructor(private readonly material: KeyMaterialSource) {}

  async seal(plain: string, purpose: string): Promise<string> {
    const key = await this.keyFor(purpose);
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', key, iv);
    cipher.setAAD(Buffer.from(purpose, 'utf8'));
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return `${VERSION}.${Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url')}`;
  }

  /** Fails when the value was changed, sealed for another purpose, or sealed with another key. */
  async open(sealed: string, purpose: string): Promise<string> {
    const [version, payload] = sealed.split('.');
    if (version !== VERSION || !payload) throw new Error('Not a sealed secret');
    const bytes = Buffer.from(payload, 'base64url');
    const decipher = createDecipheriv('aes-256-gcm', await this.keyFor(purpose), bytes.subarray(0, IV_BYTES));
    decipher.setAAD(Buffer.from(purpose, 'utf8'));
    decipher.setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    return Buffer.concat([decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
  }

  private keyFor(purpose: string): Promise<Buffer> {
    let key = this.keys.get(purpose);
    if (!key) {
      key = this.material().then((material) => Buffer.from(hkdfSync('sha256', material, SALT, purpose, 32)));
      // A failed read (no key configured, Secrets Manager unreachable) is tried again next time.
      key.catch(() => this.keys.delete(purpose));
      this.keys.set(purpose, key);
    }
    return key;
  }
}

/** The source for a configuration without any key: storing a secret then fails with a clear reason. */
export const noKeyConfigured: KeyMaterialSource = () =>
  Promise.reject(new Error('No SECRET_KEY or SECRET_KEY_ARN is configured, so secrets such as the OIDC client secret cannot be stored'));
