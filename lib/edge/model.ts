/**
 * What `POST /edge/validate` answers to one client address. It needs no token, so it is bounded
 * twice: a request names at most `tokensPerRequest` tokens (a 400 above), and an address has
 * `tokensPerMinute` token checks a minute, counted in the table across every container (a 429
 * with Retry-After above). An Edge asks about its startup tokens once, then about each new token
 * an SDK shows it and, now and then, its known ones again: far below either bound. A secret is
 * 224 random bits, so the bound is not what keeps secrets from being guessed; it keeps the
 * unauthenticated route from being a free way to run token lookups at the table's expense.
 */
export const EDGE_VALIDATION = { tokensPerRequest: 100, tokensPerMinute: 600 } as const;
export type EdgeValidationLimits = { tokensPerRequest: number; tokensPerMinute: number };

/**
 * What one bulk report may hold (`POST /api/client/metrics/bulk`), bounded as an SDK's own
 * report is (lib/limits.ts SDK_REPORT_LIMITS): at most 1,000 counts, which sum to at most
 * 1,000 toggles; and 1,000 registrations, which name far fewer applications (one record per
 * application and token scope, whatever the instance). Edge sends batches under 100 KB, which
 * hold fewer of either.
 */
export const BULK_REPORT_LIMITS = { metrics: 1000, applications: 1000 } as const;

/**
 * Distinct registrations (appName and environment) one bulk report may write; the rest are
 * dropped with one log line and the report still answered 202, so Edge does not send the whole
 * batch again. Edge keeps one entry per application and instance and forwards them all, so a
 * batch holds many instances of few applications: a real Edge stays far below this, while a
 * client token could otherwise make 1,000 registrations (up to 4 requests each) per request
 * where `/api/client/register` makes one.
 */
export const MAX_BULK_REGISTRATIONS = 100;

/**
 * Registrations a container remembers as already written today (each a short key), so a
 * report repeated within the day writes nothing for them; the least recently seen are
 * forgotten first and simply written again.
 */
export const REMEMBERED_REGISTRATIONS = 10_000;

/**
 * Registrations of one bulk or Edge instance report written at once: one, since new ones race for
 * the token scope's shared application count, and a race lost three times answered 503 after the
 * report's other registrations were written (the route fuzz found it).
 */
export const REGISTRATION_CONCURRENCY = 1;

/** Connected Edges recorded from one instance report (a chain of Edges nests them). */
export const MAX_CONNECTED_EDGES = 100;

/** The minute a count belongs to (minutes since the epoch) and when it lapses. */
export function validationWindow(now: Date): { minute: number; secondsLeft: number; expiresAt: number } {
  const minute = Math.floor(now.getTime() / 60_000);
  const endMs = (minute + 1) * 60_000;
  return { minute, secondsLeft: Math.max(1, Math.ceil((endMs - now.getTime()) / 1000)), expiresAt: Math.ceil(endMs / 1000) + 60 };
}

/** A token as `POST /edge/validate` answers it: Unleash's edgeTokenSchema. */
export interface ValidatedToken {
  token: string;
  type: 'client' | 'backend' | 'frontend' | 'admin';
  environment: string;
  projects: string[];
}
