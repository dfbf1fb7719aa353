import { describe, expect, it } from 'vitest';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { ServiceUnavailable } from '../../lib/errors.js';
import { clientAddress, ORIGIN_SECRET_HEADER, VIEWER_ADDRESS_HEADER, viewerAddressOf } from '../../lib/http/client-address.js';
import { ORIGIN_SECRET_REFRESH_MS, originSecretSource } from '../../lib/secrets/origin-secret.js';

const eventFrom = (sourceIp: string, headers: Record<string, string>) =>
  ({ headers, requestContext: { http: { sourceIp } } }) as unknown as APIGatewayProxyEventV2;

describe('the viewer address CloudFront hands over', () => {
  it('is the address without its port, in every form CloudFront writes', () => {
    expect(viewerAddressOf('198.51.100.10')).toBe('198.51.100.10');
    expect(viewerAddressOf('198.51.100.10:46532')).toBe('198.51.100.10');
    expect(viewerAddressOf(' 198.51.100.10:46532 ')).toBe('198.51.100.10');
    expect(viewerAddressOf('2001:db8::1')).toBe('2001:db8::1');
    expect(viewerAddressOf('2001:DB8:0:0:0:0:0:1')).toBe('2001:db8:0:0:0:0:0:1');
    expect(viewerAddressOf('[2001:db8::1]:46532')).toBe('2001:db8::1');
    expect(viewerAddressOf('[2001:db8::1]')).toBe('2001:db8::1');
    // IPv6 with the port after the last colon, unbracketed.
    expect(viewerAddressOf('2001:db8:0:0:0:0:0:1:46532')).toBe('2001:db8:0:0:0:0:0:1');
    expect(viewerAddressOf('2001:db8:85a3::8a2e:370:7334:46532')).toBe('2001:db8:85a3::8a2e:370:7334');
    expect(viewerAddressOf('::ffff:198.51.100.10')).toBe('::ffff:198.51.100.10');
  });

  it('is nothing for a value that holds no address', () => {
    for (const value of [undefined, '', ' ', 'unknown', '198.51.100.10:x', '198.51.100.300', '[2001:db8::1', '[nonsense]:80', '198.51.100.10, 203.0.113.1', 'a'.repeat(200)]) {
      expect(viewerAddressOf(value), String(value)).toBeUndefined();
    }
  });
});

describe('the client address of a request', () => {
  const SECRET = 'a'.repeat(40);

  it("is the viewer's only with the right secret, and the secret leaves the headers operations see", async () => {
    const address = clientAddress(() => Promise.resolve(SECRET));
    const right = eventFrom('130.176.0.1', { [ORIGIN_SECRET_HEADER]: SECRET, [VIEWER_ADDRESS_HEADER]: '198.51.100.1' });
    const wrong = eventFrom('130.176.0.1', { [ORIGIN_SECRET_HEADER]: `${SECRET}b`, [VIEWER_ADDRESS_HEADER]: '198.51.100.1' });
    const unreadable = eventFrom('130.176.0.1', { [ORIGIN_SECRET_HEADER]: SECRET, [VIEWER_ADDRESS_HEADER]: 'nobody' });

    expect(await address(right)).toBe('198.51.100.1');
    expect(await address(wrong)).toBe('130.176.0.1');
    expect(await address(unreadable)).toBe('130.176.0.1');
    expect(right.headers).toEqual({ [VIEWER_ADDRESS_HEADER]: '198.51.100.1' });
  });

  it('reads no secret for a request without the header, and answers 503 when a request has it and the secret cannot be read', async () => {
    let reads = 0;
    const address = clientAddress(() => {
      reads += 1;
      return Promise.reject(new Error('Secrets Manager unreachable'));
    });

    expect(await address(eventFrom('192.0.2.1', { [VIEWER_ADDRESS_HEADER]: '198.51.100.1' }))).toBe('192.0.2.1');
    expect(reads).toBe(0);
    await expect(address(eventFrom('192.0.2.1', { [ORIGIN_SECRET_HEADER]: SECRET }))).rejects.toBeInstanceOf(ServiceUnavailable);
  });
});

describe("the distribution's secret in the cloud", () => {
  it('is read once, again after the refresh interval, and a failed re-read keeps the value read before', async () => {
    let clock = 0;
    const answers: Array<string | Error> = ['first', new Error('unreachable'), 'second'];
    const reads: string[] = [];
    const source = originSecretSource({ cloudfrontOriginSecret: undefined, cloudfrontOriginSecretArn: 'arn:secret' }, (arn) => {
      reads.push(arn);
      const next = answers.shift()!;
      return next instanceof Error ? Promise.reject(next) : Promise.resolve(next);
    }, () => clock)!;

    const values = [await source(), await source()];
    clock += ORIGIN_SECRET_REFRESH_MS;
    values.push(await source());
    clock += ORIGIN_SECRET_REFRESH_MS;
    values.push(await source());

    expect(values).toEqual(['first', 'first', 'first', 'second']);
    expect(reads).toEqual(['arn:secret', 'arn:secret', 'arn:secret']);
  });

  it('is none when nothing is configured, so every request is its connection\'s', () => {
    expect(originSecretSource({ cloudfrontOriginSecret: undefined, cloudfrontOriginSecretArn: undefined })).toBeUndefined();
  });
});
