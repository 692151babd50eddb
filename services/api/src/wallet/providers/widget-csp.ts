import type { Config } from '@filiere/platform';

/** The payment windows the providers' scripts open, unless PAYMENT_WIDGET_FRAME_ORIGINS says. */
export const DEFAULT_WIDGET_FRAME_ORIGINS: Record<string, string[]> = {
  kkiapay: ['https://widget-v3.kkiapay.me'],
  fedapay: ['https://checkout.fedapay.com', 'https://sandbox-checkout.fedapay.com'],
  sandbox: [],
};

type WidgetConfig = Pick<
  Config,
  | 'PAYMENT_PROVIDER'
  | 'KKIAPAY_WIDGET_SCRIPT_URL'
  | 'FEDAPAY_CHECKOUT_SCRIPT_URL'
  | 'PAYMENT_WIDGET_FRAME_ORIGINS'
>;

/** The checkout script the web loads for the configured provider (none for the sandbox). */
export function widgetScriptUrl(config: WidgetConfig): string | null {
  switch (config.PAYMENT_PROVIDER) {
    case 'kkiapay':
      return config.KKIAPAY_WIDGET_SCRIPT_URL;
    case 'fedapay':
      return config.FEDAPAY_CHECKOUT_SCRIPT_URL;
    default:
      return null;
  }
}

/**
 * What the Content-Security-Policy adds to 'self' for the payment widget: the origin of the
 * configured provider's script only (not the other provider's, not a wildcard), and the
 * origins of the payment windows that script opens. The sandbox's widget is a page of ours.
 */
export function widgetContentSecurity(config: WidgetConfig): {
  scriptSrc: string[];
  frameSrc: string[];
} {
  const script = widgetScriptUrl(config);
  if (script === null) return { scriptSrc: [], frameSrc: [] };
  return {
    scriptSrc: [new URL(script).origin],
    frameSrc:
      config.PAYMENT_WIDGET_FRAME_ORIGINS ??
      DEFAULT_WIDGET_FRAME_ORIGINS[config.PAYMENT_PROVIDER] ??
      [],
  };
}
