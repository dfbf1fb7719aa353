/**
 * How a request's time is shared out, in one place, because the numbers only hold together:
 *
 *   |<------------------ FUNCTION_TIMEOUT_MS (10 s, the stack's timeout for every API function) ------------------>|
 *   | reads, rules, retries ... | a write may start here only while WRITE_BUDGET_MS is left | early answer | killed |
 *                                |<- STORE_REQUEST_TIMEOUT_MS ->|<- WRITE_MARGIN_MS ->|     EARLY_ANSWER_MS
 *
 * - A write (each attempt of it, SDK retries included) starts only while the request has at
 *   least WRITE_BUDGET_MS left; otherwise it is refused (503 with Retry-After) and nothing is
 *   stored (lib/store/late-writes.ts).
 * - A started attempt ends, answered or timed out, within STORE_REQUEST_TIMEOUT_MS, so it is
 *   over while WRITE_MARGIN_MS is still left.
 * - The chain's own early answer (a 503 when the handler has not finished) comes
 *   EARLY_ANSWER_MS before the end, which is inside that margin: it can never be sent while a
 *   write is in flight, so a 503 never hides a write that then lands.
 */

/** The timeout of every API function, read by the CDK stack and by the local runtime. */
export const FUNCTION_TIMEOUT_SECONDS = 10;
export const FUNCTION_TIMEOUT_MS = FUNCTION_TIMEOUT_SECONDS * 1000;

/** Longest one DynamoDB attempt may take, connecting included (the SDK then throws TimeoutError). */
export const STORE_REQUEST_TIMEOUT_MS = 5_000;
/** Longest a connection to DynamoDB may take to open; part of the attempt above. */
export const STORE_CONNECTION_TIMEOUT_MS = 2_000;

/** Time kept after the longest write attempt, for the answer to be built and sent. */
export const WRITE_MARGIN_MS = 1_000;
/** A write attempt starts only while at least this much of the request's time is left. */
export const WRITE_BUDGET_MS = STORE_REQUEST_TIMEOUT_MS + WRITE_MARGIN_MS;

/** The chain answers 503 this long before the function's end if the handler has not finished. */
export const EARLY_ANSWER_MS = 500;

/** What a 503 tells the client to wait before trying again, in seconds. */
export const RETRY_AFTER_SECONDS = 1;
