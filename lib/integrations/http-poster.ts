import { lookup as dnsLookup } from 'node:dns/promises';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import type { OutgoingRequest } from './messages.js';
import { hostOf, isPublicAddress } from './public-address.js';
import type { HttpAnswer, HttpPoster } from './store.js';

/** A request the service will not send: trying again cannot help. */
export class RefusedDestination extends Error {
  override readonly name = 'RefusedDestination';
}

/** How long one request may take before it counts as failed (and is tried again later). */
const REQUEST_TIMEOUT_MS = 10_000;
/** Enough of an answer for the delivery log and Slack's `ok`. */
const MAX_ANSWER_BYTES = 64 * 1024;

/**
 * POSTs with Node's own HTTP client. The host is resolved once and the connection pinned to the
 * address that was checked, so a name cannot pass the check and then resolve to a private
 * address; redirects are not followed (a 3xx is a failed delivery), as Unleash does.
 */
export class NodeHttpPoster implements HttpPoster {
  constructor(private readonly options: { allowPrivateUrls: boolean }) {}

  async post(outgoing: OutgoingRequest): Promise<HttpAnswer> {
    let url: URL;
    try {
      url = new URL(outgoing.url);
    } catch {
      throw new RefusedDestination(`Not a URL: ${outgoing.url.slice(0, 200)}`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new RefusedDestination(`Invalid protocol: ${url.protocol}`);
    const host = hostOf(url);
    const family = isIP(host);
    const resolved = family !== 0 ? [{ address: host, family }] : await dnsLookup(host, { all: true, order: 'ipv4first' });
    const [pinned] = resolved;
    if (!pinned) throw new RefusedDestination(`Hostname did not resolve: ${host}`);
    const blocked = this.options.allowPrivateUrls ? undefined : resolved.find(({ address }) => !isPublicAddress(address));
    if (blocked) throw new RefusedDestination(`URL resolves to a non-public address: ${blocked.address}`);
    return send(url, outgoing, pinned);
  }
}

function send(url: URL, outgoing: OutgoingRequest, pinned: { address: string; family: number }): Promise<HttpAnswer> {
  const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = request(url, {
      method: 'POST',
      headers: { ...outgoing.headers, 'Content-Length': String(Buffer.byteLength(outgoing.body)) },
      timeout: REQUEST_TIMEOUT_MS,
      lookup: (_hostname, options, callback) => {
        if (options.all) (callback as (error: null, addresses: Array<{ address: string; family: number }>) => void)(null, [pinned]);
        else callback(null, pinned.address, pinned.family);
      },
    }, (res) => {
      const chunks: Buffer[] = [];
      let bytes = 0;
      res.on('data', (chunk: Buffer) => {
        if (bytes < MAX_ANSWER_BYTES) chunks.push(chunk);
        bytes += chunk.length;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8').slice(0, MAX_ANSWER_BYTES) }));
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error(`No answer within ${REQUEST_TIMEOUT_MS} ms`)));
    req.on('error', reject);
    req.end(outgoing.body);
  });
}
