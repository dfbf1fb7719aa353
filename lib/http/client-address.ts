import { createHash, timingSafeEqual } from 'node:crypto';
import { isIP, isIPv6 } from 'node:net';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { ServiceUnavailable } from '../errors.js';

/**
 * Who sent a request. Behind the admin UI's CloudFront distribution (infra/constructs/
 * admin-ui.ts), API Gateway's source address is an edge server's, shared by every viewer near
 * it: counting login failures by it would let one person's wrong tries make everyone near them
 * wait, and spread an attacker's tries over many addresses. The distribution therefore sends
 * the viewer's own address, written by its viewer-request function over anything the viewer
 * sent, and a secret origin header that proves the request came through it. The execute-api
 * endpoint stays open to anyone, so the address is taken only when the secret matches.
 */

/** The origin header CloudFront adds with the distribution's secret (it replaces a viewer's header of that name). */
export const ORIGIN_SECRET_HEADER = 'x-toggles-origin-secret';
/** The viewer's address, as the distribution's viewer-request function writes it. */
export const VIEWER_ADDRESS_HEADER = 'x-toggles-viewer-address';

/** Answers the distribution's secret: the configured value, or the Secrets Manager secret's. */
export type OriginSecretSource = () => Promise<string>;

/** The address a request's operations see as `sourceIp`. */
export type ClientAddress = (event: APIGatewayProxyEventV2) => Promise<string | undefined>;

/**
 * Without a secret (the local runtime by default, the functions that count nobody) every
 * request is its connection's; with one, a request carrying the secret is its viewer's. The
 * secret is read only for requests that carry the header, so nothing else waits for it.
 */
export function clientAddress(originSecret: OriginSecretSource | undefined): ClientAddress {
  return async (event) => {
    const connected = event.requestContext?.http?.sourceIp;
    const headers = event.headers ?? {};
    const offered = headers[ORIGIN_SECRET_HEADER];
    // The secret is proof for this function only: no operation, log or answer gets to see it.
    delete headers[ORIGIN_SECRET_HEADER];
    if (!originSecret || offered === undefined) return connected;
    let secret: string;
    try {
      secret = await originSecret();
    } catch {
      // Counting this request by the edge server's address is what the secret exists to prevent.
      throw new ServiceUnavailable('The request could not be checked just now; try again in a moment.');
    }
    if (!sameSecret(offered, secret)) return connected;
    return viewerAddressOf(headers[VIEWER_ADDRESS_HEADER]) ?? connected;
  };
}

/** Compared as SHA-256 digests in constant time, so neither the value nor its length leaks through timing. */
function sameSecret(offered: string, secret: string): boolean {
  const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest();
  return secret.length > 0 && timingSafeEqual(digest(offered), digest(secret));
}

/**
 * The IP address in a viewer-address value, without a port: `198.51.100.10`,
 * `198.51.100.10:46532`, `2001:db8::1`, `[2001:db8::1]:46532`, or IPv6 with the port after the
 * last colon (as CloudFront-Viewer-Address writes it). Anything else is no address.
 */
export function viewerAddressOf(value: string | undefined): string | undefined {
  const text = (value ?? '').trim().toLowerCase();
  if (text.length === 0 || text.length > 64) return undefined;
  const bracketed = /^\[([^\]]+)\](?::(\d{1,5}))?$/.exec(text);
  if (bracketed) return isIPv6(bracketed[1] as string) ? bracketed[1] : undefined;
  if (isIP(text)) return text;
  const port = /^(.+):(\d{1,5})$/.exec(text);
  const host = port?.[1];
  return host !== undefined && isIP(host) ? host : undefined;
}
