import { z } from 'zod';

/**
 * The events of an input provider's assignment to an industrial's season link (the spec's
 * userClusterIP), stream `seasoninput-<assignmentId>` (numeric id from `season_input_ids`).
 * The assignment reserves its amount on the industrial's wallet (hold
 * `input-assignment-<id>`, placed in the same append); a ban releases what remains of it.
 */
const userId = z.guid();
const positiveId = z.number().int().positive();
const money = z.number().int().nonnegative();
const instant = z.iso.datetime();

export const inputEventSchemas = {
  InputProviderAssigned: z.object({
    assignmentId: positiveId,
    seasonId: positiveId,
    linkId: positiveId,
    industrialUserId: userId,
    providerUserId: userId,
    fertilizerId: positiveId,
    typeId: positiveId,
    quantityKg: z.number().int().positive(),
    /** a_i of the season's line: F CFA per kg. */
    unitAmount: z.number().int().positive(),
    /** quantityKg × unitAmount: the hold's amount. */
    amount: z.number().int().positive(),
    holdId: z.string().min(1),
    assignedBy: userId,
    assignedAt: instant,
  }),
  InputProviderBanned: z.object({
    assignmentId: positiveId,
    bannedBy: userId,
    bannedAt: instant,
    /** What remained of the hold and went back to the industrial's available balance. */
    released: money,
  }),
} as const;

type Schemas = typeof inputEventSchemas;
export type InputEventType = keyof Schemas;
export type InputEvent = {
  [K in InputEventType]: { type: K; data: z.infer<Schemas[K]> };
}[InputEventType];
export type InputEventOf<K extends InputEventType> = Extract<InputEvent, { type: K }>;

export function inputEvent<K extends InputEventType>(
  type: K,
  data: z.infer<Schemas[K]>,
): InputEventOf<K> {
  return { type, data } as InputEventOf<K>;
}

export const INPUT_EVENT_TYPES = Object.keys(inputEventSchemas) as InputEventType[];
