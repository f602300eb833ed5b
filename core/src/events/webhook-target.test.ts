import { describe, expect, it } from 'vitest';
import { isPublicAddress, webhookUrl } from './webhooks.ts';

/** Where a webhook may point: in production, never into the shop's own network. */
const production = { webhookAllowHttp: false, webhookAllowPrivate: false };
const development = { webhookAllowHttp: true, webhookAllowPrivate: true };

describe('webhook targets', () => {
  it('in production, refuses URLs whose host is or resolves to a private, loopback or link-local address', async () => {
    for (const url of [
      'https://127.0.0.1/hooks',
      'https://10.0.0.7/hooks',
      'https://192.168.1.20/hooks',
      'https://172.16.0.1/hooks',
      'https://169.254.169.254/latest/meta-data', // the cloud metadata service
      'https://[::1]/hooks',
      'https://[fd00::1]/hooks',
      'https://[::ffff:127.0.0.1]/hooks',
      'https://localhost/hooks', // resolves to loopback
      'https://0.0.0.0/hooks',
    ]) {
      await expect(webhookUrl(production, url), url).rejects.toMatchObject({
        status: 400,
        message: expect.stringMatching(/^url points at a private, loopback or link-local address \(.+\): set WEBHOOK_ALLOW_PRIVATE=true to allow it$/),
      });
    }
  });

  it('accepts a public address, and private ones where WEBHOOK_ALLOW_PRIVATE allows them (development)', async () => {
    expect(await webhookUrl(production, 'https://93.184.215.14/hooks')).toBe('https://93.184.215.14/hooks');
    expect(await webhookUrl(development, 'https://10.0.0.7/hooks')).toBe('https://10.0.0.7/hooks');
    expect(await webhookUrl(development, 'http://127.0.0.1:8080/hooks')).toBe('http://127.0.0.1:8080/hooks');
  });

  it('a host that does not resolve is refused in production with a clear message', async () => {
    await expect(webhookUrl(production, 'https://no-such-host.invalid/hooks')).rejects.toMatchObject({ status: 400, message: "url's host no-such-host.invalid does not resolve" });
  });

  it('tells public unicast addresses from every other range', () => {
    expect(isPublicAddress('8.8.8.8')).toBe(true);
    expect(isPublicAddress('2606:4700:4700::1111')).toBe(true);
    for (const a of ['127.0.0.1', '10.1.1.1', '100.64.0.1', '169.254.1.1', '224.0.0.1', '::1', 'fe80::1', 'fc00::1', '::ffff:10.0.0.1', '::a9fe:a9fe', '::127.0.0.1', 'not an ip']) expect(isPublicAddress(a), a).toBe(false);
  });
});
