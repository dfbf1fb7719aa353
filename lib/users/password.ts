import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { ValidationFailed } from '../errors.js';

/**
 * Passwords are kept as scrypt hashes, a memory-hard KDF built into node (no native
 * dependency in the bundle). N = 2^15, r = 8, p = 3 is one of OWASP's equivalent scrypt
 * settings (Password Storage Cheat Sheet): 32 MiB of memory per hash, which makes guessing on
 * GPUs and ASICs costly, while a login on a small Lambda takes about a tenth of a second and
 * fits its memory. The parameters are stored with each hash, so raising them later leaves
 * existing passwords readable.
 */
const PARAMETERS = { N: 2 ** 15, r: 8, p: 3 } as const;
const KEY_BYTES = 32;
const SALT_BYTES = 16;
/** Node refuses scrypt above `maxmem` (32 MiB by default); 128 * N * r is 32 MiB exactly. */
const MAX_MEMORY = 64 * 1024 * 1024;

const derive = (password: string, salt: Buffer, options: ScryptOptions): Promise<Buffer> =>
  new Promise((resolve, reject) => {
    scrypt(password.normalize('NFC'), salt, KEY_BYTES, { ...options, maxmem: MAX_MEMORY }, (error, key) =>
      error ? reject(error) : resolve(key));
  });

/** `scrypt$<N>$<r>$<p>$<salt, base64>$<hash, base64>`, with a fresh random salt. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const key = await derive(password, salt, PARAMETERS);
  const { N, r, p } = PARAMETERS;
  return ['scrypt', N, r, p, salt.toString('base64'), key.toString('base64')].join('$');
}

/** Compares in constant time; a malformed stored hash never matches. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, N, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64');
  const key = await derive(password, Buffer.from(salt, 'base64'), { N: Number(N), r: Number(r), p: Number(p) });
  return key.length === expected.length && timingSafeEqual(key, expected);
}

/**
 * A hash of a random password, verified when the user is unknown or has no password, so that
 * such a login takes as long as a wrong password and the timing does not tell them apart.
 */
let decoy: Promise<string> | undefined;
export async function verifyAgainstDecoy(password: string): Promise<void> {
  decoy ??= hashPassword(randomBytes(16).toString('hex'));
  await verifyPassword(password, await decoy);
}

/**
 * Unleash's password rules (its OWASP strength test, passphrases not allowed): 10 to 128
 * characters, no character three times in a row, and at least one lower-case letter, one
 * upper-case letter, one digit and one other character. The message names the field.
 */
export function checkPasswordRules(password: string, field = 'password'): void {
  const problem = passwordProblem(password);
  if (problem) throw new ValidationFailed(`${field}: ${problem}`);
}

function passwordProblem(password: string): string | undefined {
  if (password.length === 0) return 'a password is required';
  if (password.length < 10) return 'must be at least 10 characters long';
  if (password.length > 128) return 'must be at most 128 characters long';
  if (/(.)\1\1/su.test(password)) return 'must not repeat a character three or more times in a row';
  if (!/\p{Ll}/u.test(password)) return 'must contain a lower-case letter';
  if (!/\p{Lu}/u.test(password)) return 'must contain an upper-case letter';
  if (!/\d/.test(password)) return 'must contain a digit';
  if (!/[^\p{L}\d]/u.test(password)) return 'must contain a character that is neither a letter nor a digit';
  return undefined;
}
