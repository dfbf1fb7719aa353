import { promisify } from 'node:util';
import { gzip } from 'node:zlib';

const gzipAsync = promisify(gzip);

/**
 * A text the service sends often and never changes while it runs, kept with its gzip form,
 * compressed once. API Gateway does not compress, and the Swagger UI script shrinks from 1.7 MB
 * to about a third; Lambda answers carry binary bodies in base64.
 */
export interface TextAsset {
  text: string;
  gzipBase64: string;
}

export async function textAsset(text: string): Promise<TextAsset> {
  return { text, gzipBase64: (await gzipAsync(text)).toString('base64') };
}

/** Keeps the first successful result; a failure is forgotten so the next call tries again. */
export function once<T>(load: () => Promise<T>): () => Promise<T> {
  let pending: Promise<T> | undefined;
  return () => {
    if (!pending) {
      pending = load();
      pending.catch(() => (pending = undefined));
    }
    return pending;
  };
}
