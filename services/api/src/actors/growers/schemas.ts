import { z } from 'zod';
import { storableString } from '@filiere/platform';
import { phone } from '../../identity/index.js';

/**
 * The request and response schemas of the growers area's routes (spec §3 Grower, Plot,
 * Create-grower payload; §5 grower and plot forms; §7 "Growers and plots"). The web's
 * growers screens build against these: a change is appended to /tmp/notes/growers-api.md.
 *
 * Conventions:
 * - Location fields carry the CODES of the locations context (spec names: department =
 *   département `D03`, borough = commune `C017`, district = arrondissement `A098`, village
 *   `A098-001`).
 * - Phones are accepted in the 8-digit or 10-digit form (identity's `phone`) and answered in
 *   E.164 (`+22901XXXXXXXX`); the screens show 8/10 digits.
 * - Areas (ha), coordinates and the estimated production (t) are decimals, answered as JSON
 *   numbers; dates are `YYYY-MM-DD`.
 * - Bad input answers 400 with `fields` (path → French message).
 */

/** French messages of the spec (§5), and the area's own. */
export const GROWER_MSG = {
  required: 'Ce champ est obligatoire',
  email: 'Adresse mail invalide',
  invalid: 'Entré non valide',
  id: 'Identifiant invalide',
  date: 'Date invalide (format AAAA-MM-JJ)',
  nip: 'Le NIP ne contient que des chiffres (au plus 10)',
  tooLong: (max: number) => `Ce champ doit contenir au plus ${max} caractères`,
  max: (field: string, max: number) =>
    `Le champ ${field} doit avoir une valeur inférieur ou égale à ${max}`,
  location: (level: string) => `Code de ${level} invalide`,
  villageOutsideDistrict: 'Ce village n’appartient pas à l’arrondissement choisi',
  productType: 'Type d’ananas invalide (Cayenne lisse ou Pain de sucre)',
  latitude: 'Latitude invalide (entre -90 et 90)',
  longitude: 'Longitude invalide (entre -180 et 180)',
  areaSown: 'La superficie emblavée doit être un nombre décimal supérieur à 0',
  bankPair: 'Indiquez la banque et le numéro de compte, ou aucun des deux',
} as const;

const requiredError = (issue: { input?: unknown }) =>
  issue.input === undefined || issue.input === null ? GROWER_MSG.required : GROWER_MSG.invalid;

/** Forms send '' for an empty optional field: read it as null. */
const emptyAsNull = (value: unknown) =>
  typeof value === 'string' && value.trim() === '' ? null : value;

/** A required, trimmed, bounded text. */
const requiredText = (max = 100) =>
  storableString({ error: requiredError })
    .trim()
    .min(1, GROWER_MSG.required)
    .max(max, GROWER_MSG.tooLong(max));

/** An optional text: '' and null become null. */
const optionalText = (max = 200) =>
  z.preprocess(
    emptyAsNull,
    storableString({ error: GROWER_MSG.invalid })
      .trim()
      .max(max, GROWER_MSG.tooLong(max))
      .nullable()
      .optional(),
  );

const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
/** Growers may have no e-mail: '' and null become null. */
const optionalEmail = z.preprocess(
  emptyAsNull,
  storableString({ error: GROWER_MSG.email })
    .trim()
    .max(254, GROWER_MSG.tooLong(254))
    .regex(EMAIL_RE, GROWER_MSG.email)
    .toLowerCase()
    .nullable()
    .optional(),
);

/** A phone that may be left empty ('' and null become null). */
const optionalPhone = z.preprocess(emptyAsNull, phone.nullable().optional());

const nip = z.preprocess(
  emptyAsNull,
  storableString({ error: GROWER_MSG.nip })
    .trim()
    .regex(/^\d{1,10}$/, GROWER_MSG.nip)
    .nullable()
    .optional(),
);

export const uuid = z.uuid({ error: GROWER_MSG.id });
const optionalUuid = z.preprocess(emptyAsNull, uuid.nullable().optional());

/** Location codes (formats of the locations context; the chain is checked by the service). */
export const departmentCode = storableString({ error: requiredError })
  .trim()
  .min(1, GROWER_MSG.required)
  .regex(/^D\d{2}$/, GROWER_MSG.location('département'));
export const communeCode = storableString({ error: requiredError })
  .trim()
  .min(1, GROWER_MSG.required)
  .regex(/^C\d{3}$/, GROWER_MSG.location('commune'));
export const arrondissementCode = storableString({ error: requiredError })
  .trim()
  .min(1, GROWER_MSG.required)
  .regex(/^A\d{3}$/, GROWER_MSG.location('arrondissement'));
export const villageCode = storableString({ error: requiredError })
  .trim()
  .min(1, GROWER_MSG.required)
  .regex(/^A\d{3}-\d{3}$/, GROWER_MSG.location('village'));

/** The four levels of an address, by the spec's names, holding codes. */
const locationShape = {
  department: departmentCode,
  borough: communeCode,
  district: arrondissementCode,
  village: villageCode,
};

/** A village code starts with its arrondissement's code (`A098-004` is in `A098`). */
function villageInDistrict(
  value: { district?: string; village?: string },
  ctx: z.core.$RefinementCtx,
): void {
  if (value.district && value.village && !value.village.startsWith(`${value.district}-`)) {
    ctx.addIssue({ code: 'custom', message: GROWER_MSG.villageOutsideDistrict, path: ['village'] });
  }
}

/**
 * A decimal as the forms send it: a number, or digits with an optional single dot ('' and
 * null are "absent"); a missing value answers 'Ce champ est obligatoire', a bad one `message`.
 */
const decimalInput = (message: string, signed = false) =>
  z.preprocess(
    (value) => {
      const v = emptyAsNull(value);
      if (v === null) return undefined;
      if (typeof v !== 'string') return v;
      const re = signed ? /^-?\d+(\.\d+)?$/ : /^\d+(\.\d+)?$/;
      return re.test(v.trim()) ? Number(v.trim()) : v;
    },
    z.number({
      error: (issue) => (issue.input === undefined ? GROWER_MSG.required : message),
    }),
  );

const rounded = (digits: number) => (n: number) => Number(n.toFixed(digits));

const coordinate = (min: number, max: number, message: string) =>
  z.preprocess(
    emptyAsNull,
    decimalInput(message, true)
      .refine((n) => Number.isFinite(n) && n >= min && n <= max, message)
      .transform(rounded(7))
      .nullable()
      .optional(),
  );

/** `YYYY-MM-DD` (a full ISO timestamp is read as its date); a real calendar date. */
const isoDate = z.preprocess(
  (value) => {
    const v = emptyAsNull(value);
    return typeof v === 'string' && /^\d{4}-\d{2}-\d{2}T/.test(v) ? v.slice(0, 10) : v;
  },
  storableString({ error: GROWER_MSG.date })
    .regex(/^\d{4}-\d{2}-\d{2}$/, GROWER_MSG.date)
    .refine((s) => {
      const d = new Date(`${s}T00:00:00Z`);
      return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s;
    }, GROWER_MSG.date)
    .nullable()
    .optional(),
);

export const PRODUCT_TYPES = ['CAYENNE_LISSE', 'PAIN_DE_SUCRE'] as const;
export type ProductType = (typeof PRODUCT_TYPES)[number];
export const PRODUCT_TYPE_LABELS: Record<ProductType, string> = {
  CAYENNE_LISSE: 'Cayenne lisse',
  PAIN_DE_SUCRE: 'Pain de sucre',
};

/** Sown area (ha): a decimal, not 0, at most 10,000 ha; 4 decimals kept. */
export const MAX_AREA_SOWN = 10_000;
/** Estimated production (t): a decimal ≥ 0, at most 1,000,000 t; 3 decimals kept. */
export const MAX_ESTIMATED_PRODUCTION = 1_000_000;

const plotFields = {
  productType: z.enum(PRODUCT_TYPES, {
    error: (issue) => (issue.input === undefined ? GROWER_MSG.required : GROWER_MSG.productType),
  }),
  ...locationShape,
  /** The plot's name ('location' in the spec: Nom de la parcelle). */
  location: requiredText(100),
  address: optionalText(200),
  latitude: coordinate(-90, 90, GROWER_MSG.latitude),
  longitude: coordinate(-180, 180, GROWER_MSG.longitude),
  plantingDate: isoDate,
  tifDate: isoDate,
  areaSown: decimalInput(GROWER_MSG.areaSown)
    .refine((n) => Number.isFinite(n) && n > 0, GROWER_MSG.areaSown)
    .refine((n) => n <= MAX_AREA_SOWN, GROWER_MSG.max('Superficie emblavée', MAX_AREA_SOWN))
    .transform(rounded(4)),
  estimatedProduction: z.preprocess(
    emptyAsNull,
    decimalInput(GROWER_MSG.invalid)
      .refine((n) => Number.isFinite(n) && n >= 0, GROWER_MSG.invalid)
      .refine(
        (n) => n <= MAX_ESTIMATED_PRODUCTION,
        GROWER_MSG.max('Production estimée', MAX_ESTIMATED_PRODUCTION),
      )
      .transform(rounded(3))
      .nullable()
      .optional(),
  ),
};

/** A plot in the create-grower payload (products[]). */
export const plotInput = z.object(plotFields).superRefine(villageInDistrict);
export type PlotInput = z.infer<typeof plotInput>;

/** POST product: a plot of an existing grower. */
export const createPlotBody = z
  .object({ ...plotFields, growerId: uuid })
  .superRefine(villageInDistrict);
export type CreatePlotBody = z.infer<typeof createPlotBody>;

/** PATCH product/{id}: any plot field; the location's four levels together or none. */
export const updatePlotBody = z
  .object(plotFields)
  .partial()
  .superRefine((value, ctx) => {
    const levels = ['department', 'borough', 'district', 'village'] as const;
    const given = levels.filter((l) => value[l] !== undefined);
    if (given.length > 0 && given.length < levels.length) {
      for (const l of levels.filter((l) => value[l] === undefined)) {
        ctx.addIssue({ code: 'custom', message: GROWER_MSG.required, path: [l] });
      }
    }
    villageInDistrict(value, ctx);
  });
export type UpdatePlotBody = z.infer<typeof updatePlotBody>;

/** The grower's personal information (spec: the `user` of the payload). */
const growerUserFields = {
  lastname: requiredText(100),
  firstname: requiredText(100),
  nip,
  phone,
  email: optionalEmail,
  contactFullname: optionalText(150),
  contactPhone: optionalPhone,
  ...locationShape,
};

/** The payout account entered at registration (bank optional: both fields or neither). */
const accountInfo = z
  .object({
    providerName: optionalText(100),
    accountNumber: z.preprocess(
      emptyAsNull,
      storableString({ error: GROWER_MSG.invalid })
        .trim()
        .max(40, GROWER_MSG.tooLong(40))
        .regex(/^[0-9A-Za-z -]+$/, GROWER_MSG.invalid)
        .nullable()
        .optional(),
    ),
  })
  .superRefine((v, ctx) => {
    if (!!v.providerName !== !!v.accountNumber) {
      ctx.addIssue({
        code: 'custom',
        message: GROWER_MSG.bankPair,
        path: [v.providerName ? 'accountNumber' : 'providerName'],
      });
    }
  });

/** Mobile money: the number is required (the form pre-fills it from the phone). */
const momoInfo = z.object(
  {
    /** Ignored on input: the operator (MOOV/MTN) is derived from the number. */
    providerName: z.unknown().optional(),
    momoNumber: phone,
  },
  { error: requiredError },
);

/**
 * POST grower/cluster/{clusterId}: the create-grower payload (spec §3). `organizationId`
 * and `clusterId` of the body are ignored (the path names the cluster; the super admin sends
 * no organisation id); `farmerOrganizationId` is the cooperative (an organisation of type
 * COOPERATIVE) or '' / null for 'Aucune coopérative'.
 */
export const createGrowerBody = z.object({
  organizationId: z.unknown().optional(),
  clusterId: z.unknown().optional(),
  farmerOrganizationId: optionalUuid,
  user: z.object(growerUserFields, { error: requiredError }).superRefine(villageInDistrict),
  grower: z
    .object({ address: optionalText(200), subCooperative: optionalText(50) })
    .default({ address: null, subCooperative: null }),
  products: z.array(plotInput).max(50, GROWER_MSG.tooLong(50)).default([]),
  accountInfo: accountInfo.default({ providerName: null, accountNumber: null }),
  momoInfo,
});
export type CreateGrowerBody = z.infer<typeof createGrowerBody>;

/**
 * PATCH grower/{id}: personal information, address, cooperative. The payout account is not
 * edited here: a different `accountInfo` or `momoInfo` answers 403 (reason
 * PAYOUT_CHANGE_NEEDS_REQUEST) — a change is a request approved by a super admin.
 */
export const updateGrowerBody = z.object({
  farmerOrganizationId: optionalUuid,
  user: z
    .object(growerUserFields)
    .partial()
    .superRefine((value, ctx) => {
      const levels = ['department', 'borough', 'district', 'village'] as const;
      const given = levels.filter((l) => value[l] !== undefined);
      if (given.length > 0 && given.length < levels.length) {
        for (const l of levels.filter((l) => value[l] === undefined)) {
          ctx.addIssue({ code: 'custom', message: GROWER_MSG.required, path: [l] });
        }
      }
      villageInDistrict(value, ctx);
    })
    .optional(),
  grower: z
    .object({ address: optionalText(200), subCooperative: optionalText(50) })
    .partial()
    .optional(),
  /** Read-only here: sent back unchanged by the form, or refused (403). */
  accountInfo: accountInfo.optional(),
  momoInfo: momoInfo.partial().optional(),
});
export type UpdateGrowerBody = z.infer<typeof updateGrowerBody>;

export const idParams = z.object({ id: uuid });

/** Lists: page (from 1), limit (default 10, at most 100), q (name, phone, reference). */
const page = z.coerce
  .number(GROWER_MSG.invalid)
  .int(GROWER_MSG.invalid)
  .min(1, GROWER_MSG.invalid)
  .max(100_000, GROWER_MSG.max('page', 100_000))
  .default(1);
const q = z.preprocess(
  emptyAsNull,
  storableString().trim().max(100, GROWER_MSG.tooLong(100)).nullable().optional(),
);
/** `status=inactive` lists the deactivated growers (super admin only). */
const status = z.enum(['active', 'inactive'], GROWER_MSG.invalid).default('active');

export const growerListQuery = z.object({
  page,
  limit: z.coerce
    .number(GROWER_MSG.invalid)
    .int(GROWER_MSG.invalid)
    .min(1, GROWER_MSG.invalid)
    .max(100, GROWER_MSG.max('limit', 100))
    .default(10),
  q,
  status,
});
export type GrowerListQuery = z.infer<typeof growerListQuery>;

/** Selector lists of one cluster or cooperative also take limit -1 (everything). */
export const growerSelectorQuery = growerListQuery.extend({
  limit: z.coerce
    .number(GROWER_MSG.invalid)
    .int(GROWER_MSG.invalid)
    .min(-1, GROWER_MSG.invalid)
    .max(1000, GROWER_MSG.max('limit', 1000))
    .refine((n) => n !== 0, GROWER_MSG.invalid)
    .default(10),
});
export type GrowerSelectorQuery = z.infer<typeof growerSelectorQuery>;

/** GET grower/no-cooperative: the super admin and admin name the cluster (else their own). */
export const noCooperativeQuery = growerSelectorQuery.extend({ clusterId: optionalUuid });
export type NoCooperativeQuery = z.infer<typeof noCooperativeQuery>;

/** GET grower/contracts/{id}. */
export const growerContractsQuery = z.object({
  page,
  limit: growerListQuery.shape.limit,
  q,
});

/** GET grower/download/{userId}: the signed-in user's id; the file holds what its list shows. */
export const downloadParams = z.object({ userId: uuid });
export const downloadQuery = z.object({ q, status });

// ---------------------------------------------------------------- responses

export const listOf = <T extends z.ZodType>(item: T) =>
  z.object({ data: z.array(item), count: z.number() });

export const plotSchema = z.object({
  id: z.string(),
  growerId: z.string(),
  productType: z.enum(PRODUCT_TYPES),
  /** 'Cayenne lisse' | 'Pain de sucre'. */
  productTypeLabel: z.string(),
  department: z.string(),
  borough: z.string(),
  district: z.string(),
  village: z.string(),
  location: z.string(),
  address: z.string().nullable(),
  latitude: z.number().nullable(),
  longitude: z.number().nullable(),
  plantingDate: z.string().nullable(),
  tifDate: z.string().nullable(),
  areaSown: z.number(),
  estimatedProduction: z.number().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type PlotDto = z.infer<typeof plotSchema>;

const cooperativeRef = z.object({ id: z.string(), label: z.string() }).nullable();

/** A row of the growers list ('Producteurs'). */
export const growerListItem = z.object({
  id: z.string(),
  reference: z.string(),
  user: z.object({
    id: z.string(),
    lastname: z.string(),
    firstname: z.string(),
    phone: z.string().nullable(),
  }),
  /** Null for a grower without cooperative, and always null for the cooperative role's list. */
  farmerOrganization: cooperativeRef,
  clusterId: z.string(),
  /** 'Superficie emblavée (ha)': the sum of its plots' areaSown. */
  areaSown: z.number(),
  plotCount: z.number(),
  isActive: z.boolean(),
  createdAt: z.string(),
});
export type GrowerListItemDto = z.infer<typeof growerListItem>;

/** The payout account as shown (read-only after registration). */
export const accountInfoSchema = z.object({
  providerName: z.string().nullable(),
  accountNumber: z.string().nullable(),
});
export const momoInfoSchema = z.object({
  /** Derived from the number (decisions.md): MOOV or MTN; null without a number. */
  providerName: z.enum(['MOOV', 'MTN']).nullable(),
  momoNumber: z.string().nullable(),
});

/** GET grower/{id} (and the answer of create and PATCH). */
export const growerDetail = z.object({
  id: z.string(),
  reference: z.string(),
  address: z.string().nullable(),
  subCooperative: z.string().nullable(),
  clusterId: z.string(),
  cluster: z.object({ id: z.string(), label: z.string() }).nullable(),
  farmerOrganizationId: z.string().nullable(),
  /** Same as farmerOrganizationId (the original client reads both names). */
  cooperativeId: z.string().nullable(),
  farmerOrganization: cooperativeRef,
  user: z.object({
    id: z.string(),
    lastname: z.string(),
    firstname: z.string(),
    nip: z.string().nullable(),
    phone: z.string().nullable(),
    email: z.string().nullable(),
    contactFullname: z.string().nullable(),
    contactPhone: z.string().nullable(),
    department: z.string(),
    borough: z.string(),
    district: z.string(),
    village: z.string(),
    walletId: z.string(),
  }),
  products: z.array(plotSchema),
  /**
   * The payout account: shown to the staff who register growers (super admin, admin, cluster
   * manager) and to the grower's cooperative; null for the other roles that read growers.
   */
  accountInfo: accountInfoSchema.nullable(),
  momoInfo: momoInfoSchema.nullable(),
  areaSown: z.number(),
  isActive: z.boolean(),
  deactivatedAt: z.string().nullable(),
  createdAt: z.string(),
  createdBy: z.string().nullable(),
});
export type GrowerDetailDto = z.infer<typeof growerDetail>;

/**
 * A row of GET grower/contracts/{id}: the grower's contracts (delivery, advances, social
 * financing). Filled by the contracts context once it exists (until then the list is empty).
 */
export const growerContractItem = z.object({
  id: z.string(),
  reference: z.string(),
  type: z.string(),
  status: z.string(),
  createdAt: z.string(),
  quantity: z.number().nullable(),
  amount: z.number().nullable(),
});

export const messageSchema = z.object({ message: z.string() });

/** GET grower/{id}/audit: one event of the grower's trail. */
export const growerAuditEntry = z.object({
  position: z.number(),
  type: z.string(),
  recordedAt: z.string(),
  actorId: z.string().nullable(),
  data: z.record(z.string(), z.unknown()),
});
