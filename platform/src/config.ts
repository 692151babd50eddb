import { isIP } from 'node:net';
import { z } from 'zod';

/**
 * The whole configuration, parsed once from the environment. Every variable is documented in
 * `configDocs` below, which `npm run docs:config` renders into docs/configuration.md.
 */
const portSchema = z.coerce
  .number({ message: 'must be a number' })
  .int('must be an integer')
  .min(1, 'must be between 1 and 65535')
  .max(65535, 'must be between 1 and 65535');

const urlWithProtocols = (protocols: string[]) =>
  z
    .string()
    .url('must be a URL')
    .refine((value) => protocols.some((p) => value.startsWith(`${p}://`)), {
      message: `must start with ${protocols.map((p) => `${p}://`).join(' or ')}`,
    });

const positiveInt = (fallback: number) =>
  z.coerce
    .number({ message: 'must be a number' })
    .int('must be an integer')
    .positive('must be positive')
    .default(fallback);

/**
 * TRUST_PROXY: whose X-Forwarded-For the API believes (Fastify's `trustProxy`). Off by
 * default: the client address is the socket's, so a client cannot pick its own address and
 * escape the per-IP attempt limits. `true` trusts every peer (only when nothing but the proxy
 * can reach the API), a number trusts that many hops, otherwise a comma-separated list of
 * addresses, CIDRs or the names loopback, linklocal, uniquelocal.
 */
export type TrustProxy = boolean | number | string[];

const PROXY_RANGE_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

function isProxyAddress(value: string): boolean {
  if (PROXY_RANGE_NAMES.has(value)) return true;
  const [address = '', bits, extra] = value.split('/');
  const version = isIP(address);
  if (!version || extra !== undefined) return false;
  if (bits === undefined) return true;
  const max = version === 4 ? 32 : 128;
  return /^\d{1,3}$/.test(bits) && Number(bits) <= max;
}

const trustProxySchema = z
  .string()
  .optional()
  .transform((value, ctx): TrustProxy => {
    const text = value?.trim().toLowerCase() ?? '';
    if (text === '' || text === 'false') return false;
    if (text === 'true') return true;
    if (/^\d+$/.test(text)) return Number(text) === 0 ? false : Number(text);
    const list = text
      .split(',')
      .map((item) => item.trim())
      .filter(Boolean);
    const wrong = list.find((item) => !isProxyAddress(item));
    if (wrong !== undefined || list.length === 0) {
      ctx.addIssue({
        code: 'custom',
        message: `must be true, false, a hop count or a comma-separated list of addresses or CIDRs${wrong === undefined ? '' : ` ("${wrong}" is none of them)`}`,
      });
      return z.NEVER;
    }
    return list;
  });

/** The supply bank outside production (demo data); production must name its own. */
const DEMO_SUPPLY_BANK = {
  name: 'Banque Atlantique Bénin',
  account: 'BJ0660100100000012345678901',
};

/**
 * Money ceilings, in F CFA (see the wallet's deciders): the most one command may move
 * (supply, transfer, withdrawal, financing) and the most a wallet may hold. A ceiling is at
 * most 10^15, so a sum over a million wallets at the maximum stays an exact integer.
 */
export const DEFAULT_MAX_COMMAND_AMOUNT = 100_000_000;
export const DEFAULT_MAX_BALANCE = 10_000_000_000;
const MONEY_CEILING_LIMIT = 1_000_000_000_000_000;
const moneyCeiling = (fallback: number) =>
  z.coerce
    .number({ message: 'must be a number' })
    .int('must be an integer')
    .positive('must be positive')
    .max(MONEY_CEILING_LIMIT, `must be at most ${MONEY_CEILING_LIMIT}`)
    .default(fallback);
const moneyLimits = {
  MAX_COMMAND_AMOUNT: moneyCeiling(DEFAULT_MAX_COMMAND_AMOUNT),
  MAX_BALANCE: moneyCeiling(DEFAULT_MAX_BALANCE),
};

/**
 * The payment widgets the web app loads: each provider's checkout script (the provider's
 * own address by default), handed to the browser with a supply — never built into the web
 * bundle — and the only script origin besides ours that the CSP allows; and the origins of
 * the payment windows the script opens (the CSP's frame-src), comma-separated, by default
 * the selected provider's.
 */
const widgetScript = (fallback: string) =>
  z
    .string()
    .url('must be a URL')
    .refine((value) => /^https?:\/\//.test(value), 'must be an http(s) URL')
    .default(fallback);
const paymentWidgets = {
  KKIAPAY_WIDGET_SCRIPT_URL: widgetScript('https://cdn.kkiapay.me/k.js'),
  FEDAPAY_CHECKOUT_SCRIPT_URL: widgetScript('https://cdn.fedapay.com/checkout.js?v=1.1.7'),
  PAYMENT_WIDGET_FRAME_ORIGINS: z
    .string()
    .optional()
    .transform((value, ctx) => {
      if (value === undefined || value.trim() === '') return undefined;
      const origins = value
        .split(',')
        .map((item) => item.trim())
        .filter(Boolean);
      const wrong = origins.find((item) => !/^https?:\/\/[^/\s]+$/.test(item));
      if (wrong !== undefined) {
        ctx.addIssue({
          code: 'custom',
          message: `must be comma-separated origins such as https://widget.example ("${wrong}" is not one)`,
        });
        return z.NEVER;
      }
      return origins;
    }),
};

/**
 * The sites' maps (stores, places, coverage zones): MAP_STYLE_URL is a MapLibre style JSON URL
 * or a raster tile template with {z}/{x}/{y} (OpenStreetMap's tiles by default), or `offline`
 * for the bundled country outlines; GEOCODER_URL is a Nominatim-compatible service the browser
 * calls (/search, /reverse), or `offline` (the locations reference data and plus codes).
 * Their origins join the CSP's connect-src and img-src.
 */
const mapSetting = (fallback: string) =>
  z
    .string()
    .refine(
      (value) => value === 'offline' || /^https?:\/\/[^\s]+$/.test(value),
      'must be an http(s) URL or offline',
    )
    .default(fallback);
const maps = {
  MAP_STYLE_URL: mapSetting('https://tile.openstreetmap.org/{z}/{x}/{y}.png'),
  GEOCODER_URL: mapSetting('https://nominatim.openstreetmap.org'),
};

const configShape = z.object({
  NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
  HOST: z.string().min(1).default('127.0.0.1'),
  PORT: portSchema.default(3000),
  PUBLIC_URL: z.string().url('must be a URL').optional(),
  DATABASE_URL: urlWithProtocols(['postgres', 'postgresql']).optional(),
  REDIS_URL: urlWithProtocols(['redis', 'rediss']).optional(),
  DATA_DIR: z.string().min(1).default('.data'),
  JWT_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  SMTP_URL: urlWithProtocols(['smtp', 'smtps']).optional(),
  MAIL_FROM: z.string().min(3).default('Filière <no-reply@filiere.bj>'),
  COMMAND_BATCH_MAX: positiveInt(256),
  COMMAND_BATCH_WAIT_MS: z.coerce
    .number({ message: 'must be a number' })
    .min(0, 'must be 0 or more')
    .default(2),
  PROJECTION_BATCH_SIZE: positiveInt(1000),
  PROJECTION_GATHER_MS: z.coerce
    .number({ message: 'must be a number' })
    .int('must be a whole number')
    .min(0, 'must be 0 or more')
    .max(1000, 'must be 1000 or less')
    .default(20),
  BACKGROUND_NICE: z.coerce
    .number({ message: 'must be a number' })
    .int('must be a whole number')
    .min(0, 'must be 0 or more')
    .max(19, 'must be 19 or less')
    .default(10),
  SEASON_INVITATION_DAYS: positiveInt(7),
  SUPPLY_ABANDON_MINUTES: positiveInt(30),
  CORS_ORIGINS: z.string().optional(),
  PAYMENT_PROVIDER: z.enum(['sandbox', 'kkiapay', 'fedapay']).default('sandbox'),
  KKIAPAY_BASE_URL: z.string().url('must be a URL').default('https://api.kkiapay.me'),
  KKIAPAY_PUBLIC_KEY: z.string().optional(),
  KKIAPAY_PRIVATE_KEY: z.string().optional(),
  KKIAPAY_SECRET_KEY: z.string().optional(),
  FEDAPAY_BASE_URL: z.string().url('must be a URL').default('https://api.fedapay.com'),
  FEDAPAY_PUBLIC_KEY: z.string().optional(),
  FEDAPAY_SECRET_KEY: z.string().optional(),
  PAYOUT_PROVIDER: z.enum(['sandbox', 'fedapay']).optional(),
  SMS_GATEWAY: z.enum(['outbox', 'twilio']).default('outbox'),
  TWILIO_BASE_URL: z.string().url('must be a URL').default('https://api.twilio.com'),
  TWILIO_ACCOUNT_SID: z
    .string()
    .regex(/^AC[0-9a-fA-F]{32}$/, 'must be AC followed by 32 hexadecimal characters')
    .optional(),
  TWILIO_AUTH_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
  TWILIO_FROM: z
    .string()
    .regex(
      /^(\+\d{8,15}|[A-Za-z0-9 ]{1,11})$/,
      'must be an E.164 number or an alphanumeric sender of at most 11 characters',
    )
    .optional(),
  METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
  TRUST_PROXY: trustProxySchema,
  SUPPLY_BANK_NAME: z.string().min(2).default(DEMO_SUPPLY_BANK.name),
  SUPPLY_BANK_ACCOUNT: z.string().min(5).default(DEMO_SUPPLY_BANK.account),
  ...maps,
  ...moneyLimits,
  ...paymentWidgets,
});

export const configSchema = configShape
  .superRefine((env, ctx) => {
    if (env.MAX_COMMAND_AMOUNT > env.MAX_BALANCE) {
      ctx.addIssue({
        code: 'custom',
        path: ['MAX_COMMAND_AMOUNT'],
        message: `must not exceed MAX_BALANCE (${env.MAX_BALANCE})`,
      });
    }
  })
  .superRefine((env, ctx) => {
    const required: Record<string, string[]> = {
      kkiapay: ['KKIAPAY_PUBLIC_KEY', 'KKIAPAY_PRIVATE_KEY', 'KKIAPAY_SECRET_KEY'],
      fedapay: ['FEDAPAY_PUBLIC_KEY', 'FEDAPAY_SECRET_KEY'],
    };
    if (env.PAYMENT_PROVIDER === 'kkiapay' && !env.PAYOUT_PROVIDER) {
      ctx.addIssue({
        code: 'custom',
        path: ['PAYOUT_PROVIDER'],
        message:
          'is required when PAYMENT_PROVIDER=kkiapay (KKiaPay has no payout API): set fedapay',
      });
      return;
    }
    if (
      env.NODE_ENV === 'production' &&
      env.PAYOUT_PROVIDER === 'sandbox' &&
      env.PAYMENT_PROVIDER !== 'sandbox'
    ) {
      ctx.addIssue({
        code: 'custom',
        path: ['PAYOUT_PROVIDER'],
        message: 'must not be sandbox (it pays nothing out) when NODE_ENV=production',
      });
      return;
    }
    const needed = new Set([env.PAYMENT_PROVIDER, env.PAYOUT_PROVIDER ?? env.PAYMENT_PROVIDER]);
    for (const name of [...needed].flatMap((provider) => required[provider] ?? [])) {
      if (!env[name as keyof typeof env]) {
        ctx.addIssue({
          code: 'custom',
          path: [name],
          message:
            name.startsWith('FEDAPAY') && env.PAYMENT_PROVIDER !== 'fedapay'
              ? 'is required when PAYOUT_PROVIDER=fedapay'
              : `is required when PAYMENT_PROVIDER=${env.PAYMENT_PROVIDER}`,
        });
      }
    }
  })
  .superRefine((env, ctx) => {
    if (env.SMS_GATEWAY !== 'twilio') return;
    for (const name of ['TWILIO_ACCOUNT_SID', 'TWILIO_AUTH_TOKEN', 'TWILIO_FROM'] as const) {
      if (!env[name]) {
        ctx.addIssue({
          code: 'custom',
          path: [name],
          message: 'is required when SMS_GATEWAY=twilio',
        });
      }
    }
  })
  .transform((env) => ({
    ...env,
    PUBLIC_URL: env.PUBLIC_URL ?? `http://localhost:${env.PORT}`,
    embedded: env.DATABASE_URL === undefined,
    JWT_SECRET: env.JWT_SECRET ?? developmentSecret(env.NODE_ENV),
    corsOrigins: (env.CORS_ORIGINS ?? '')
      .split(',')
      .map((o) => o.trim())
      .filter(Boolean),
  }));

export type Config = z.infer<typeof configSchema>;

/** The sections of docs/configuration.md, in order. */
export const CONFIG_AREAS = [
  'Server',
  'Storage',
  'Access and security',
  'Mail',
  'SMS',
  'Payments',
  'Money limits',
  'Background work',
  'Seasons',
  'Maps',
] as const;

export type ConfigVariable = keyof typeof configShape.shape;

interface VariableDoc {
  area: (typeof CONFIG_AREAS)[number];
  /** Markdown. */
  meaning: string;
  /** Markdown, when the schema's default is not the whole story (none, computed, refused). */
  default?: string;
}

/**
 * What every variable means, the one source of docs/configuration.md (`npm run docs:config`;
 * a test fails when the committed page differs). The defaults shown come from the schema
 * unless `default` says more.
 */
export const configDocs: Record<ConfigVariable, VariableDoc> = {
  NODE_ENV: {
    area: 'Server',
    meaning:
      "`production` never loads demo data and refuses the demo defaults: it requires `JWT_SECRET` (not the development one), `PAYMENT_PROVIDER` `kkiapay` or `fedapay` with FedaPay paying out, an SMS gateway (`SMS_GATEWAY=twilio`), `SUPPLY_BANK_NAME` and `SUPPLY_BANK_ACCOUNT`; it never serves the sandbox widget, and `/api/docs` and the details of `/api/ready` need `METRICS_TOKEN` or an admin's token.",
  },
  HOST: { area: 'Server', meaning: 'Interface to listen on (`0.0.0.0` in Docker).' },
  PORT: { area: 'Server', meaning: 'Port of the API and the web app.' },
  PUBLIC_URL: {
    area: 'Server',
    default: '`http://localhost:$PORT`',
    meaning: 'Address users reach; used in mailed links.',
  },
  LOG_LEVEL: {
    area: 'Server',
    meaning: 'pino level (`silent` … `trace`); logs are JSON lines, pretty in a terminal.',
  },
  CORS_ORIGINS: {
    area: 'Server',
    default: 'none (closed)',
    meaning: 'Comma-separated origins allowed to call the API from another origin.',
  },
  TRUST_PROXY: {
    area: 'Server',
    default: 'off',
    meaning:
      "Proxies whose `X-Forwarded-For` gives the client address (attempt limits, logs): `true` (every peer: only when nothing but the proxy reaches the API), a hop count (the n nearest hops), or a comma-separated list of addresses/CIDRs (`10.0.0.5`, `172.16.0.0/12`) or `loopback`, `linklocal`, `uniquelocal`. Set it to the reverse proxy's address when there is one; leave it off when clients connect directly, so a client cannot pick its own address and escape the per-IP attempt limits.",
  },
  DATABASE_URL: {
    area: 'Storage',
    default: 'none (embedded)',
    meaning: 'PostgreSQL URL; without it an embedded PostgreSQL runs in `$DATA_DIR/postgres`.',
  },
  REDIS_URL: {
    area: 'Storage',
    default: 'none (in-process)',
    meaning:
      'Redis URL; with it projections run in BullMQ workers (`npm run worker`), pushes go through Redis pub/sub, and the sign-in and registration attempt counters are shared by all API processes.',
  },
  DATA_DIR: {
    area: 'Storage',
    meaning:
      'Where the embedded PostgreSQL keeps its files, and background exports (`exports/`, removed after 24 h; the API and every worker must see the same directory).',
  },
  JWT_SECRET: {
    area: 'Access and security',
    default: 'a development secret, refused in production',
    meaning:
      'HMAC secret of access tokens, 32+ characters, and the root of the keys of signed document links and growers’ acceptance codes (changing it voids the codes not yet entered); required in production, where the published development secret is refused.',
  },
  METRICS_TOKEN: {
    area: 'Access and security',
    meaning:
      "Bearer token for `/api/metrics` (16+ characters), and in production for `/api/docs` and the details of `/api/ready`; admins' tokens work too.",
  },
  SMTP_URL: {
    area: 'Mail',
    default: 'none (outbox)',
    meaning:
      '`smtp://` or `smtps://` server for mail; without it mails go to the `outbox` table and the log.',
  },
  MAIL_FROM: { area: 'Mail', meaning: 'Sender of mails.' },
  SMS_GATEWAY: {
    area: 'SMS',
    default: '`outbox`, refused in production',
    meaning:
      "Who sends the growers' SMS (docs/messaging.md): `outbox` keeps them in the `sms_outbox` table and the log, sending nothing (development, tests); `twilio` sends them through Twilio's Messaging API (MTN and Moov Benin) and takes its delivery reports at `PUBLIC_URL/api/messaging/twilio/status`. Production requires a gateway.",
  },
  TWILIO_BASE_URL: { area: 'SMS', meaning: "Twilio's REST API (a stand-in's in tests)." },
  TWILIO_ACCOUNT_SID: {
    area: 'SMS',
    meaning: 'The Twilio account (`AC…`); required with `SMS_GATEWAY=twilio`.',
  },
  TWILIO_AUTH_TOKEN: {
    area: 'SMS',
    meaning:
      "The account's auth token: the API's password and the key of the delivery reports' `X-Twilio-Signature`; required with `SMS_GATEWAY=twilio`.",
  },
  TWILIO_FROM: {
    area: 'SMS',
    meaning:
      'The sender the grower sees: an alphanumeric sender ID registered for Benin (at most 11 characters, e.g. `FILIERE`) or an E.164 number; required with `SMS_GATEWAY=twilio`.',
  },
  PAYMENT_PROVIDER: {
    area: 'Payments',
    default: '`sandbox`, refused in production',
    meaning:
      '`sandbox` (built-in widget, development and tests only), `kkiapay` or `fedapay`; production requires `kkiapay` or `fedapay`.',
  },
  PAYOUT_PROVIDER: {
    area: 'Payments',
    default: '= `PAYMENT_PROVIDER`',
    meaning:
      'Who pays withdrawals out: `fedapay` or `sandbox`; required with `kkiapay`, which has no payout API; production requires FedaPay (set, or by default with `PAYMENT_PROVIDER=fedapay`).',
  },
  KKIAPAY_BASE_URL: { area: 'Payments', meaning: "KKiaPay's API." },
  KKIAPAY_PUBLIC_KEY: { area: 'Payments', meaning: 'KKiaPay credential (required when selected).' },
  KKIAPAY_PRIVATE_KEY: {
    area: 'Payments',
    meaning: 'KKiaPay credential (required when selected).',
  },
  KKIAPAY_SECRET_KEY: { area: 'Payments', meaning: 'KKiaPay credential (required when selected).' },
  FEDAPAY_BASE_URL: { area: 'Payments', meaning: "FedaPay's API." },
  FEDAPAY_PUBLIC_KEY: {
    area: 'Payments',
    meaning: 'FedaPay credential (required when selected for supplies or payouts).',
  },
  FEDAPAY_SECRET_KEY: {
    area: 'Payments',
    meaning: 'FedaPay credential (required when selected for supplies or payouts).',
  },
  KKIAPAY_WIDGET_SCRIPT_URL: {
    area: 'Payments',
    meaning:
      "KKiaPay's checkout script, which the web loads for mobile-money and card supplies (http(s)): handed to the browser by the API, never built into the web app, and the only script origin besides the site's that the CSP allows (the selected provider's).",
  },
  FEDAPAY_CHECKOUT_SCRIPT_URL: {
    area: 'Payments',
    meaning:
      "FedaPay's checkout script, served to the browser and allowed by the CSP as `KKIAPAY_WIDGET_SCRIPT_URL` is.",
  },
  PAYMENT_WIDGET_FRAME_ORIGINS: {
    area: 'Payments',
    default: "the selected provider's",
    meaning:
      "Comma-separated origins of the payment windows the provider's script opens, the CSP's `frame-src` (by default `https://widget-v3.kkiapay.me`, or `https://checkout.fedapay.com` and `https://sandbox-checkout.fedapay.com`).",
  },
  SUPPLY_BANK_NAME: {
    area: 'Payments',
    default: 'a demo bank, refused in production',
    meaning: 'The one bank accepted for supplies by transfer; required in production.',
  },
  SUPPLY_BANK_ACCOUNT: {
    area: 'Payments',
    default: 'a demo account, refused in production',
    meaning:
      'The account of that bank; required in production, where the demo account number is refused.',
  },
  SUPPLY_ABANDON_MINUTES: {
    area: 'Payments',
    meaning:
      'Minutes after which a mobile-money or card supply its provider knows no payment for is given up by the background check (FAILED, with its reason); a payment proven later is still credited.',
  },
  MAX_COMMAND_AMOUNT: {
    area: 'Money limits',
    meaning:
      'The most one supply, transfer, withdrawal or financing may move, in F CFA (400 above it); at most 10¹⁵ and at most `MAX_BALANCE`.',
  },
  MAX_BALANCE: {
    area: 'Money limits',
    meaning:
      'The most a wallet may hold, in F CFA: a command that would take a wallet past it is refused (422); at most 10¹⁵, so a sum over a million wallets at the maximum stays an exact integer.',
  },
  COMMAND_BATCH_MAX: {
    area: 'Background work',
    meaning: 'Group commit: most commands in one transaction.',
  },
  COMMAND_BATCH_WAIT_MS: {
    area: 'Background work',
    meaning: 'Group commit: longest wait, in milliseconds, to gather a batch.',
  },
  PROJECTION_BATCH_SIZE: {
    area: 'Background work',
    meaning:
      'Events a projection batch reads (one transaction for the in-process group of projectors).',
  },
  PROJECTION_GATHER_MS: {
    area: 'Background work',
    meaning:
      "Least milliseconds (0–1000) between two runs of the projectors (the API's background thread, a worker's group job): under a steady flow the events of that time make one batch, whose cost hardly depends on its size; after a quiet spell a run starts at once. 0: a run as soon as woken (a batch per append under load).",
  },
  BACKGROUND_NICE: {
    area: 'Background work',
    meaning:
      "Nice value (0–19, Linux) of the API's background thread without `REDIS_URL` (projectors, payouts, ledger verification) and of `npm run worker` processes, and of their PostgreSQL connections' server processes when PostgreSQL runs on this machine: that work yields the CPU to requests, commands and contract runs, and catches up when they leave it some. 0: the priority of the API's thread.",
  },
  SEASON_INVITATION_DAYS: {
    area: 'Seasons',
    meaning:
      "Days an aggregator has to accept a season's invitation (PENDING) before the expiry job cancels it (CANCELED).",
  },
  MAP_STYLE_URL: {
    area: 'Maps',
    meaning:
      "The sites' maps (stores, places, coverage zones): a raster tile template with `{z}/{x}/{y}`, a MapLibre style JSON URL, or `offline` (the bundled Natural Earth country outlines only); its origin joins the CSP's `img-src` and `connect-src`.",
  },
  GEOCODER_URL: {
    area: 'Maps',
    meaning:
      'A Nominatim-compatible service the browser calls (`/search`, `/reverse`), or `offline` (address search from the locations reference data, reverse geocoding to the plus code); its origin joins `connect-src`.',
  },
};

/** The value a variable takes when it is not set, from the schema (undefined: none). */
export function configDefault(name: ConfigVariable): unknown {
  const parsed = configShape.shape[name].safeParse(undefined);
  return parsed.success ? parsed.data : undefined;
}

const DEV_SECRET = 'filiere-development-secret-not-for-production-use';

/**
 * What NODE_ENV=production refuses to start with, as "VARIABLE problem" (the first one), or
 * undefined. Every default that only suits a demo must be replaced: the published development
 * JWT secret (anyone could sign tokens), the sandbox provider (its public widget credits any
 * supply without payment and its payouts "succeed" without paying), and the demo bank.
 */
function productionRefusal(
  config: Config,
  given: Record<string, string | undefined>,
): string | undefined {
  if (config.NODE_ENV !== 'production') return undefined;
  if (!given.JWT_SECRET) return 'JWT_SECRET is required when NODE_ENV=production';
  if (config.JWT_SECRET === DEV_SECRET) {
    return 'JWT_SECRET must not be the published development secret when NODE_ENV=production';
  }
  if (config.PAYMENT_PROVIDER === 'sandbox') {
    return (
      'PAYMENT_PROVIDER must be kkiapay or fedapay when NODE_ENV=production' +
      ' (the sandbox credits supplies without any payment)'
    );
  }
  if ((config.PAYOUT_PROVIDER ?? config.PAYMENT_PROVIDER) !== 'fedapay') {
    return 'PAYOUT_PROVIDER must be fedapay when NODE_ENV=production (the sandbox pays nothing out)';
  }
  if (config.SMS_GATEWAY === 'outbox') {
    return 'SMS_GATEWAY must be twilio when NODE_ENV=production (the outbox sends no SMS: growers would never get their codes)';
  }
  if (!given.SUPPLY_BANK_NAME) {
    return 'SUPPLY_BANK_NAME is required when NODE_ENV=production (the default is a demo bank)';
  }
  if (!given.SUPPLY_BANK_ACCOUNT || config.SUPPLY_BANK_ACCOUNT === DEMO_SUPPLY_BANK.account) {
    return 'SUPPLY_BANK_ACCOUNT is required when NODE_ENV=production (the default is a demo account)';
  }
  return undefined;
}

function developmentSecret(nodeEnv: string): string {
  if (nodeEnv === 'production') {
    // Refused by productionRefusal; never reached with a usable value.
    return '';
  }
  return DEV_SECRET;
}

export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

/** Parses the environment; throws a ConfigError whose message is one line naming the variable. */
export function parseConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const cleaned = Object.fromEntries(
    Object.entries(env).filter(([, value]) => value !== undefined && value !== ''),
  );
  const result = configSchema.safeParse(cleaned);
  if (!result.success) {
    const issue = result.error.issues[0]!;
    const name = String(issue.path[0] ?? 'environment');
    const got = cleaned[name];
    const shown = got === undefined ? '' : ` (got "${truncate(String(got))}")`;
    throw new ConfigError(`Invalid configuration: ${name} ${issue.message}${shown}`);
  }
  const refused = productionRefusal(result.data, cleaned);
  if (refused) throw new ConfigError(`Invalid configuration: ${refused}`);
  return result.data;
}

function truncate(value: string): string {
  return value.length > 40 ? `${value.slice(0, 40)}…` : value;
}

let cached: Config | undefined;

/** The process-wide configuration, parsed on first use. */
export function config(): Config {
  cached ??= parseConfig();
  return cached;
}

/** Prints a configuration error as one line and exits; any other error is rethrown. */
export function exitOnConfigError(error: unknown): never {
  if (error instanceof ConfigError) {
    process.stderr.write(`${error.message}\n`);
    process.exit(1);
  }
  throw error;
}
