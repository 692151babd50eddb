import { describe, expect, it } from 'vitest';
import { ConfigError, parseConfig } from './config.js';

describe('parseConfig', () => {
  it('gives the embedded defaults with an empty environment', () => {
    const config = parseConfig({});
    expect(config.PORT).toBe(3000);
    expect(config.embedded).toBe(true);
    expect(config.PUBLIC_URL).toBe('http://localhost:3000');
    expect(config.REDIS_URL).toBeUndefined();
    expect(config.JWT_SECRET.length).toBeGreaterThanOrEqual(32);
  });

  it('names the variable and the problem in one line', () => {
    expect(() => parseConfig({ PORT: 'abc' })).toThrow(ConfigError);
    try {
      parseConfig({ PORT: 'abc' });
    } catch (error) {
      const message = (error as Error).message;
      expect(message).toMatch(/^Invalid configuration: PORT /);
      expect(message).toContain('"abc"');
      expect(message).not.toContain('\n');
    }
  });

  it('refuses a port out of range and a DATABASE_URL of another kind', () => {
    expect(() => parseConfig({ PORT: '70000' })).toThrow(/PORT must be between 1 and 65535/);
    expect(() => parseConfig({ DATABASE_URL: 'mysql://x@y/z' })).toThrow(
      /DATABASE_URL must start with postgres:\/\//,
    );
    expect(() => parseConfig({ REDIS_URL: 'nope' })).toThrow(/REDIS_URL/);
  });

  it('requires a real JWT secret in production', () => {
    expect(() => parseConfig({ NODE_ENV: 'production', DATABASE_URL: 'postgres://u@h/d' })).toThrow(
      /JWT_SECRET/,
    );
    expect(() => parseConfig({ JWT_SECRET: 'short' })).toThrow(
      /JWT_SECRET must be at least 32 characters/,
    );
  });

  it('uses DATABASE_URL when given (not embedded)', () => {
    const config = parseConfig({
      DATABASE_URL: 'postgres://u:p@localhost:5432/filiere',
      PORT: '8080',
    });
    expect(config.embedded).toBe(false);
    expect(config.PORT).toBe(8080);
    expect(config.PUBLIC_URL).toBe('http://localhost:8080');
  });

  it('takes an optional METRICS_TOKEN of 16 characters or more', () => {
    expect(parseConfig({}).METRICS_TOKEN).toBeUndefined();
    expect(parseConfig({ METRICS_TOKEN: 'scrape-token-0123456789' }).METRICS_TOKEN).toBe(
      'scrape-token-0123456789',
    );
    expect(() => parseConfig({ METRICS_TOKEN: 'short' })).toThrow(
      /^Invalid configuration: METRICS_TOKEN must be at least 16 characters/,
    );
  });

  it('reads TRUST_PROXY: off by default, true/false, a hop count or addresses and CIDRs', () => {
    expect(parseConfig({}).TRUST_PROXY).toBe(false);
    expect(parseConfig({ TRUST_PROXY: 'false' }).TRUST_PROXY).toBe(false);
    expect(parseConfig({ TRUST_PROXY: 'true' }).TRUST_PROXY).toBe(true);
    expect(parseConfig({ TRUST_PROXY: '2' }).TRUST_PROXY).toBe(2);
    expect(parseConfig({ TRUST_PROXY: '0' }).TRUST_PROXY).toBe(false);
    expect(
      parseConfig({ TRUST_PROXY: '10.0.0.5, 192.168.0.0/16,::1,fd00::/8,loopback' }).TRUST_PROXY,
    ).toEqual(['10.0.0.5', '192.168.0.0/16', '::1', 'fd00::/8', 'loopback']);
    for (const wrong of ['yes', '10.0.0.0/33', '10.0.0', 'proxy.local', '1.2.3.4/8/2', ',']) {
      expect(() => parseConfig({ TRUST_PROXY: wrong }), wrong).toThrow(
        /^Invalid configuration: TRUST_PROXY must be true, false, a hop count or a comma-separated list/,
      );
    }
  });

  it('refuses KKiaPay without a payout route, naming PAYOUT_PROVIDER in one line', () => {
    const kkiapay = {
      PAYMENT_PROVIDER: 'kkiapay',
      KKIAPAY_PUBLIC_KEY: 'pub',
      KKIAPAY_PRIVATE_KEY: 'priv',
      KKIAPAY_SECRET_KEY: 'sec',
    };
    expect(() => parseConfig(kkiapay)).toThrow(
      /^Invalid configuration: PAYOUT_PROVIDER is required when PAYMENT_PROVIDER=kkiapay [^\n]*$/,
    );
    expect(() => parseConfig({ ...kkiapay, PAYOUT_PROVIDER: 'fedapay' })).toThrow(
      /^Invalid configuration: FEDAPAY_PUBLIC_KEY is required when PAYOUT_PROVIDER=fedapay$/,
    );
    const routed = parseConfig({
      ...kkiapay,
      PAYOUT_PROVIDER: 'fedapay',
      FEDAPAY_PUBLIC_KEY: 'pk',
      FEDAPAY_SECRET_KEY: 'sk',
    });
    expect(routed.PAYMENT_PROVIDER).toBe('kkiapay');
    expect(routed.PAYOUT_PROVIDER).toBe('fedapay');
    expect(parseConfig({ ...kkiapay, PAYOUT_PROVIDER: 'sandbox' }).PAYOUT_PROVIDER).toBe('sandbox');
    expect(() =>
      parseConfig({
        ...kkiapay,
        PAYOUT_PROVIDER: 'sandbox',
        NODE_ENV: 'production',
        JWT_SECRET: 'x'.repeat(32),
      }),
    ).toThrow(/PAYOUT_PROVIDER must not be sandbox/);
    expect(() => parseConfig({ PAYOUT_PROVIDER: 'kkiapay' })).toThrow(/PAYOUT_PROVIDER/);
  });
});

describe('parseConfig in production: no demo default is accepted', () => {
  /** A production setup parseConfig accepts; each case below takes one thing away. */
  const production = {
    NODE_ENV: 'production',
    DATABASE_URL: 'postgres://u:p@db:5432/filiere',
    JWT_SECRET: 'a-real-secret-of-more-than-32-characters',
    PAYMENT_PROVIDER: 'fedapay',
    FEDAPAY_PUBLIC_KEY: 'pk_live',
    FEDAPAY_SECRET_KEY: 'sk_live',
    SUPPLY_BANK_NAME: 'Ecobank Bénin',
    SUPPLY_BANK_ACCOUNT: 'BJ0990100100000099999999',
    SMS_GATEWAY: 'twilio',
    TWILIO_ACCOUNT_SID: `AC${'a1'.repeat(16)}`,
    TWILIO_AUTH_TOKEN: 'twilio-auth-token-0123456789',
    TWILIO_FROM: 'FILIERE',
  };
  const refusal = (env: Record<string, string>) => {
    try {
      parseConfig(env);
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      const message = (error as Error).message;
      expect(message).not.toContain('\n');
      return message;
    }
    return 'accepted';
  };
  const without = (name: keyof typeof production) => {
    const { [name]: _dropped, ...rest } = production;
    return rest;
  };

  it('accepts a real provider, secret and bank', () => {
    const config = parseConfig(production);
    expect(config.PAYMENT_PROVIDER).toBe('fedapay');
    expect(config.PAYOUT_PROVIDER ?? config.PAYMENT_PROVIDER).toBe('fedapay');
    const kkiapay = parseConfig({
      ...production,
      PAYMENT_PROVIDER: 'kkiapay',
      PAYOUT_PROVIDER: 'fedapay',
      KKIAPAY_PUBLIC_KEY: 'pub',
      KKIAPAY_PRIVATE_KEY: 'priv',
      KKIAPAY_SECRET_KEY: 'sec',
    });
    expect(kkiapay.PAYMENT_PROVIDER).toBe('kkiapay');
  });

  it('refuses the sandbox provider (absent or named), naming PAYMENT_PROVIDER', () => {
    expect(refusal(without('PAYMENT_PROVIDER'))).toMatch(
      /^Invalid configuration: PAYMENT_PROVIDER must be kkiapay or fedapay when NODE_ENV=production/,
    );
    expect(refusal({ ...production, PAYMENT_PROVIDER: 'sandbox' })).toMatch(
      /^Invalid configuration: PAYMENT_PROVIDER must be kkiapay or fedapay/,
    );
  });

  it('refuses sandbox payouts, naming PAYOUT_PROVIDER', () => {
    expect(refusal({ ...production, PAYOUT_PROVIDER: 'sandbox' })).toMatch(
      /^Invalid configuration: PAYOUT_PROVIDER must not be sandbox/,
    );
  });

  it('refuses the missing or published development JWT secret, naming JWT_SECRET', () => {
    expect(refusal(without('JWT_SECRET'))).toBe(
      'Invalid configuration: JWT_SECRET is required when NODE_ENV=production',
    );
    expect(
      refusal({ ...production, JWT_SECRET: parseConfig({ NODE_ENV: 'test' }).JWT_SECRET }),
    ).toMatch(/^Invalid configuration: JWT_SECRET must not be the published development secret/);
  });

  it('refuses the demo bank, naming SUPPLY_BANK_NAME or SUPPLY_BANK_ACCOUNT', () => {
    expect(refusal(without('SUPPLY_BANK_NAME'))).toMatch(
      /^Invalid configuration: SUPPLY_BANK_NAME is required when NODE_ENV=production/,
    );
    expect(refusal(without('SUPPLY_BANK_ACCOUNT'))).toMatch(
      /^Invalid configuration: SUPPLY_BANK_ACCOUNT is required when NODE_ENV=production/,
    );
    const demoAccount = parseConfig({}).SUPPLY_BANK_ACCOUNT;
    expect(refusal({ ...production, SUPPLY_BANK_ACCOUNT: demoAccount })).toMatch(
      /^Invalid configuration: SUPPLY_BANK_ACCOUNT is required/,
    );
  });

  it('refuses the SMS outbox (absent or named), naming SMS_GATEWAY', () => {
    expect(refusal(without('SMS_GATEWAY'))).toMatch(
      /^Invalid configuration: SMS_GATEWAY must be twilio when NODE_ENV=production/,
    );
    expect(refusal({ ...production, SMS_GATEWAY: 'outbox' })).toMatch(
      /^Invalid configuration: SMS_GATEWAY must be twilio/,
    );
  });

  it("requires Twilio's credentials and sender with SMS_GATEWAY=twilio", () => {
    expect(refusal(without('TWILIO_AUTH_TOKEN'))).toBe(
      'Invalid configuration: TWILIO_AUTH_TOKEN is required when SMS_GATEWAY=twilio',
    );
    expect(refusal({ ...production, TWILIO_FROM: 'FILIERE-BENIN-SMS' })).toMatch(
      /^Invalid configuration: TWILIO_FROM must be an E.164 number or an alphanumeric sender/,
    );
    expect(parseConfig({}).SMS_GATEWAY).toBe('outbox');
  });

  it('keeps the demo defaults outside production', () => {
    const config = parseConfig({});
    expect(config.PAYMENT_PROVIDER).toBe('sandbox');
    expect(config.SUPPLY_BANK_NAME).toBe('Banque Atlantique Bénin');
  });
});
