import { z } from 'zod';

/**
 * The events of a season's stream (`season-<id>`). A season carries its pricing (price per
 * kg, yield, quotity, fertilizer lines) and its links to industrials (aggregators): each
 * link is attached (PENDING, an invitation with `expiresAt`), then accepted (CONFIRMED) or
 * expired (CANCELED). The amounts of a link are computed by the decider and carried by the
 * event, so that the read model never recomputes them.
 */
const userId = z.guid();
const seasonId = z.number().int().positive();
const linkId = z.number().int().positive();
const money = z.number().int().nonnegative();
const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);
const instant = z.iso.datetime();

export const fertilizerLineSchema = z.object({
  /** The fertilizer of the actors' catalogue (fertilizers.id). */
  fertilizerId: z.number().int().positive(),
  /** Its type (fertilizer_types.id). */
  typeId: z.number().int().positive(),
  /** a_i: F CFA per kg. */
  amount: z.number().int().positive(),
  /** d_i: kg per hectare (two decimals at most). */
  index: z.number().positive(),
});

const seasonFields = {
  seasonId,
  label: z.string(),
  from: isoDate,
  to: isoDate,
  unitProductAmount: z.number().int().positive(),
  productionIndex: z.number().positive(),
  quotity: z.number().min(0).max(100),
  fertilizers: z.array(fertilizerLineSchema),
};

const linkAmounts = {
  quantity: z.number().int().positive(),
  productionAmount: money,
  fertilizerAmount: money,
  minSupplyAmount: money,
};

export const seasonEventSchemas = {
  SeasonCreated: z.object({ ...seasonFields, createdBy: userId }),
  SeasonEdited: z.object({
    ...seasonFields,
    editedBy: userId,
    /** The pending invitations whose amounts the new pricing changed. */
    repriced: z.array(z.object({ linkId, userId, ...linkAmounts })),
  }),
  SeasonArchived: z.object({ seasonId, archivedBy: userId }),
  SeasonActivated: z.object({ seasonId, activatedBy: userId }),
  IndustrialAttached: z.object({
    seasonId,
    linkId,
    userId,
    ...linkAmounts,
    attachedAt: instant,
    expiresAt: instant,
    attachedBy: userId,
  }),
  IndustrialAccepted: z.object({ seasonId, linkId, userId, ...linkAmounts, acceptedAt: instant }),
  InvitationExpired: z.object({ seasonId, linkId, userId, expiredAt: instant }),
  IndustrialDetached: z.object({ seasonId, linkId, userId, detachedBy: userId }),
} as const;

type Schemas = typeof seasonEventSchemas;
export type SeasonEventType = keyof Schemas;
export type SeasonEvent = {
  [K in SeasonEventType]: { type: K; data: z.infer<Schemas[K]> };
}[SeasonEventType];
export type SeasonEventOf<K extends SeasonEventType> = Extract<SeasonEvent, { type: K }>;
export type FertilizerLine = z.infer<typeof fertilizerLineSchema>;

export function seasonEvent<K extends SeasonEventType>(
  type: K,
  data: z.infer<Schemas[K]>,
): SeasonEventOf<K> {
  return { type, data } as SeasonEventOf<K>;
}

export const SEASON_EVENT_TYPES = Object.keys(seasonEventSchemas) as SeasonEventType[];
