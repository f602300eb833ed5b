import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

describe('configuration', () => {
  it('gives development safe defaults', () => {
    const config = loadConfig({ NODE_ENV: 'development' });
    expect(config.paymentConfirmations).toBe(1);
    expect(config.chainId).toBe(1);
    expect(config.cashoutMinimum).toBe('20');
    expect(config.seedAdminPassword).toBeTruthy();
  });

  it('refuses to start in production without secrets, naming each variable', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(ConfigError);
    try {
      loadConfig({ NODE_ENV: 'production', DATABASE_URL: 'postgresql://db/shop' });
    } catch (err) {
      const message = (err as Error).message;
      for (const name of ['REDIS_URL', 'ETH_RPC_URL', 'RECEIVING_ADDRESS', 'JWT_SECRET', 'SMTP_URL', 'PAYOUT_ADDRESSES', 'PUBLIC_URL']) expect(message).toContain(name);
      expect(message).not.toContain('DATABASE_URL');
    }
  });

  it('uses 12 confirmations on mainnet production and rejects malformed values', () => {
    const config = loadConfig({
      NODE_ENV: 'production',
      DATABASE_URL: 'postgresql://db/shop',
      REDIS_URL: 'redis://cache:6379',
      ETH_RPC_URL: 'https://rpc.example.org',
      RECEIVING_ADDRESS: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
      JWT_SECRET: 'x'.repeat(40),
      SMTP_URL: 'smtp://mail.example.org:587',
      PAYOUT_ADDRESSES: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266, 0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC',
      PUBLIC_URL: 'https://shop.example.org',
    });
    expect(config.admin2faRequired).toBe(true);
    expect(config.payoutAddresses).toEqual(['0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266', '0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc']);
    expect(config.paymentConfirmations).toBe(12);
    expect(config.cookieSecure).toBe(true);
    expect(() => loadConfig({ RECEIVING_ADDRESS: '0x123' })).toThrow(/RECEIVING_ADDRESS/);
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/PORT/);
  });

  it('reads TRUST_PROXY as a boolean, a hop count or a list of addresses', () => {
    expect(loadConfig({}).trustProxy).toBe('loopback');
    expect(loadConfig({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, loopback' }).trustProxy).toBe('10.0.0.0/8, loopback');
    expect(() => loadConfig({ TRUST_PROXY: 'every proxy!' })).toThrow(/TRUST_PROXY/);
  });
});
