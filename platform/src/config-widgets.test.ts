import { describe, expect, it } from 'vitest';
import { parseConfig } from './config.js';

describe('payment widget settings', () => {
  it('default to the providers’ own checkout scripts, with no frame origins set', () => {
    const config = parseConfig({});
    expect(config.KKIAPAY_WIDGET_SCRIPT_URL).toBe('https://cdn.kkiapay.me/k.js');
    expect(config.FEDAPAY_CHECKOUT_SCRIPT_URL).toBe('https://cdn.fedapay.com/checkout.js?v=1.1.7');
    expect(config.PAYMENT_WIDGET_FRAME_ORIGINS).toBeUndefined();
  });

  it('take another script address and a list of frame origins', () => {
    const config = parseConfig({
      KKIAPAY_WIDGET_SCRIPT_URL: 'http://127.0.0.1:4100/k.js',
      PAYMENT_WIDGET_FRAME_ORIGINS: ' https://pay.example , http://127.0.0.1:4100',
    });
    expect(config.KKIAPAY_WIDGET_SCRIPT_URL).toBe('http://127.0.0.1:4100/k.js');
    expect(config.PAYMENT_WIDGET_FRAME_ORIGINS).toEqual([
      'https://pay.example',
      'http://127.0.0.1:4100',
    ]);
  });

  it('refuse a script that is not http(s) and an origin with a path, naming the variable', () => {
    expect(() => parseConfig({ FEDAPAY_CHECKOUT_SCRIPT_URL: 'javascript:alert(1)' })).toThrow(
      /^Invalid configuration: FEDAPAY_CHECKOUT_SCRIPT_URL must be an http\(s\) URL/,
    );
    expect(() => parseConfig({ PAYMENT_WIDGET_FRAME_ORIGINS: 'https://pay.example/x' })).toThrow(
      /^Invalid configuration: PAYMENT_WIDGET_FRAME_ORIGINS must be comma-separated origins/,
    );
  });
});
