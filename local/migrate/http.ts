/**
 * One side of a migration: an Unleash-speaking server reached only through its HTTP admin API
 * with an admin token, so the tool works the same against a local `npm start`, a deployed stack
 * and a running Unleash. Every request is counted, for the report.
 */

export class AdminApiError extends Error {
  constructor(
    readonly method: string,
    readonly path: string,
    readonly status: number,
    readonly text: string,
  ) {
    super(`${method} ${path} answered ${status}: ${text.slice(0, 500)}`);
  }
}

export interface RequestOptions {
  /** Another token than the admin one (an SDK token, for the verification). */
  token?: string;
  headers?: Record<string, string>;
}

export interface AdminSide {
  /** `from` or `to`: how the report and the progress lines name the side. */
  label: string;
  url: string;
  request<T = any>(method: string, path: string, body?: unknown, options?: RequestOptions): Promise<T>;
  /** As `request`, but a 404 answers undefined: a route the side does not have (Unleash OSS lacks groups, OIDC). */
  optional<T = any>(method: string, path: string, body?: unknown): Promise<T | undefined>;
  requests(): number;
}

/** Answers worth one more try: throttling and a server that is briefly unavailable. */
const RETRIED = new Set([429, 502, 503, 504]);
const ATTEMPTS = 6;

export function adminSide(label: string, url: string, adminToken: string): AdminSide {
  const base = url.replace(/\/+$/, '');
  let count = 0;
  const request = async <T>(method: string, path: string, body?: unknown, options: RequestOptions = {}): Promise<T> => {
    for (let attempt = 1; ; attempt += 1) {
      count += 1;
      const response = await fetch(`${base}${path}`, {
        method,
        headers: {
          authorization: options.token ?? adminToken,
          accept: 'application/json',
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          ...options.headers,
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const text = await response.text();
      if (RETRIED.has(response.status) && attempt < ATTEMPTS) {
        await pause(retryDelay(response.headers.get('retry-after'), attempt));
        continue;
      }
      if (!response.ok) throw new AdminApiError(method, path, response.status, text);
      return (text === '' ? undefined : JSON.parse(text)) as T;
    }
  };
  return {
    label,
    url: base,
    request,
    async optional(method, path, body) {
      try {
        return await request(method, path, body);
      } catch (error) {
        if (error instanceof AdminApiError && error.status === 404) return undefined;
        throw error;
      }
    },
    requests: () => count,
  };
}

/** The server's Retry-After when it gives one (seconds), else a doubling pause from a quarter second. */
function retryDelay(retryAfter: string | null, attempt: number): number {
  const seconds = Number(retryAfter);
  return Number.isFinite(seconds) && seconds > 0 ? Math.min(seconds, 10) * 1000 : 250 * 2 ** (attempt - 1);
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export const encode = encodeURIComponent;
