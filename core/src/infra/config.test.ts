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

  it('shows prices in AZN at 1.70 in the demo shop, in what DISPLAY_CURRENCIES names when set, and stops on a malformed entry', () => {
    expect(loadConfig({}).displayCurrencies).toEqual([expect.objectContaining({ code: 'AZN', perUsd: '1.70' })]);
    expect(loadConfig({ DISPLAY_CURRENCIES: 'AZN:1.72:2026-11-20' }).displayCurrencies).toEqual([{ code: 'AZN', perUsd: '1.72', asOf: '2026-11-20' }]);
    expect(() => loadConfig({ DISPLAY_CURRENCIES: 'AZN:abc' })).toThrow(/DISPLAY_CURRENCIES/);
  });

  it('reads TRUST_PROXY as a boolean, a hop count or a list of addresses', () => {
    expect(loadConfig({}).trustProxy).toBe('loopback');
    expect(loadConfig({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, loopback' }).trustProxy).toBe('10.0.0.0/8, loopback');
    expect(() => loadConfig({ TRUST_PROXY: 'every proxy!' })).toThrow(/TRUST_PROXY/);
  });

  it('takes the stablecoin peg tolerance in basis points, 100 by default, at most 10%', () => {
    expect(loadConfig({}).stablecoinPegToleranceBps).toBe(100);
    expect(loadConfig({ STABLECOIN_PEG_TOLERANCE_BPS: '25' }).stablecoinPegToleranceBps).toBe(25);
    expect(loadConfig({ STABLECOIN_PEG_TOLERANCE_BPS: '0' }).stablecoinPegToleranceBps).toBe(0);
    for (const bad of ['1001', '-1', '0.5', 'one percent']) expect(() => loadConfig({ STABLECOIN_PEG_TOLERANCE_BPS: bad })).toThrow(/STABLECOIN_PEG_TOLERANCE_BPS/);
  });

  it('gives the relay of signed payments its own wallet: off without one, never the sweeper\'s, never both a key and a signer', () => {
    const off = loadConfig({ NODE_ENV: 'development' });
    expect(off.relayAddress).toBeNull();
    const key = '0x2a871d0798f97d79848a013d4936a73bf4cc922c825d33c1cf7073dff6d409c6';
    const on = loadConfig({ NODE_ENV: 'development', RELAY_PRIVATE_KEY: key, RELAY_MAX_GAS_USD: '1.50' });
    expect(on).toMatchObject({ relayAddress: '0xa0ee7a142d267c1f36714e4a8f75612f20a79720', relayMaxGasUsd: '1.50', relayFailuresPerUserPerDay: 2 });
    expect(() => loadConfig({ NODE_ENV: 'development', RELAY_PRIVATE_KEY: key, SWEEPER_PRIVATE_KEY: key })).toThrow(/RELAY_PRIVATE_KEY: the relay wallet must not be the sweeper's gas wallet/);
    expect(() => loadConfig({ NODE_ENV: 'development', RELAY_ADDRESS: '0xa0Ee7A142d267C1f36714E4a8F75612F20a79720', SWEEPER_PRIVATE_KEY: key })).toThrow(/RELAY_ADDRESS: the relay wallet must not be the sweeper's gas wallet/);
    expect(() => loadConfig({ NODE_ENV: 'development', RELAY_PRIVATE_KEY: key, RELAY_ADDRESS: '0xa0Ee7A142d267C1f36714E4a8F75612F20a79720' })).toThrow(/RELAY_ADDRESS: set RELAY_PRIVATE_KEY/);
    expect(() => loadConfig({ NODE_ENV: 'development', RELAY_MAX_GAS_USD: 'lots' })).toThrow(/RELAY_MAX_GAS_USD/);
  });

  describe('the network (DEV_CHAIN, SHOP_NETWORK_LABEL, EXPLORER_URL)', () => {
    const production = {
      NODE_ENV: 'production', DATABASE_URL: 'postgresql://db/shop', REDIS_URL: 'redis://cache:6379', ETH_RPC_URL: 'https://rpc.example.org',
      RECEIVING_ADDRESS: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8', JWT_SECRET: 'x'.repeat(40), SMTP_URL: 'smtp://mail.example.org:587',
      PAYOUT_ADDRESSES: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266', PUBLIC_URL: 'https://shop.example.org',
    };

    it('calls a development shop a test network on a local chain, with no explorer', () => {
      expect(loadConfig({ NODE_ENV: 'development' }).network).toEqual({
        chainId: 1, name: 'Local development chain', testNetwork: true, developmentChain: true, explorerUrl: null,
      });
    });

    it('calls a production shop on chain id 1 Ethereum mainnet, with Etherscan', () => {
      expect(loadConfig(production).network).toEqual({ chainId: 1, name: 'Ethereum mainnet', testNetwork: false, developmentChain: false, explorerUrl: 'https://etherscan.io' });
    });

    it('names a public test network and its explorer, and a label overrides the name', () => {
      expect(loadConfig({ ...production, CHAIN_ID: '11155111' }).network).toMatchObject({ name: 'Sepolia', testNetwork: true, explorerUrl: 'https://sepolia.etherscan.io' });
      expect(loadConfig({ ...production, SHOP_NETWORK_LABEL: 'Staging (mainnet fork)' }).network).toMatchObject({ name: 'Staging (mainnet fork)', testNetwork: true, explorerUrl: 'https://etherscan.io' });
      expect(loadConfig({ ...production, DEV_CHAIN: 'true', SHOP_NETWORK_LABEL: 'Demo chain' }).network).toMatchObject({ name: 'Demo chain', developmentChain: true, explorerUrl: null });
    });

    it('takes EXPLORER_URL as given (no trailing slash), or none', () => {
      expect(loadConfig({ EXPLORER_URL: 'http://127.0.0.1:4000/' }).network.explorerUrl).toBe('http://127.0.0.1:4000');
      expect(loadConfig({ ...production, EXPLORER_URL: 'none' }).network.explorerUrl).toBeNull();
    });

    it('refuses a malformed label or explorer, naming the variable', () => {
      expect(() => loadConfig({ SHOP_NETWORK_LABEL: '<script>' })).toThrow(/SHOP_NETWORK_LABEL: must be 1-40 letters/);
      expect(() => loadConfig({ SHOP_NETWORK_LABEL: 'x'.repeat(41) })).toThrow(/SHOP_NETWORK_LABEL/);
      expect(() => loadConfig({ EXPLORER_URL: 'etherscan.io' })).toThrow(/EXPLORER_URL: must be an http\(s\) URL/);
      // Not a URL a browser can open (it would break the page that links it).
      expect(() => loadConfig({ EXPLORER_URL: 'https://a<b' })).toThrow(/EXPLORER_URL: must be an http\(s\) URL/);
      expect(() => loadConfig({ EXPLORER_URL: 'https://etherscan.io/?q=1' })).toThrow(/EXPLORER_URL/);
      expect(() => loadConfig({ ...production, EXPLORER_URL: 'http://explorer.example.org' })).toThrow(/EXPLORER_URL: must be an https:\/\/ URL in production/);
      expect(() => loadConfig({ DEV_CHAIN: 'maybe' })).toThrow(/DEV_CHAIN/);
    });
  });
});
