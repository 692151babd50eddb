/**
 * The acceptance trail of a delivery contract, as a grower reads it: one French line per
 * event of its stream (who, when), never an event type's name. A new event on the stream needs
 * only its label here; an event without one prints the generic label (and the catalogue test
 * fails until it has one).
 */
export const TRAIL_LABELS: Record<string, string> = {
  DeliveryContractCreated: 'Contrat proposé',
  DeliveryContractConfirmed: 'Contrat confirmé',
  AcceptanceCodeIssued: "Code d'acceptation envoyé au producteur par SMS",
  AcceptanceCodeRejected: "Code d'acceptation erroné saisi",
  DeliveryContractAccepted: 'Accord du producteur enregistré',
  DeliveryRecorded: 'Livraison pesée et enregistrée',
  DeliveryContractOutOfTime: 'Contrat passé hors délais',
  DeliveryContractCanceled: 'Contrat annulé',
  DeliveryContractSettled: 'Livraison payée',
};

/** The label of an event with none (never its type's name). */
export const UNLABELLED_STEP = 'Étape inscrite au registre';

/** Fields naming the user who caused an event, in the order they are looked for. */
const ACTOR_FIELDS = [
  'acceptedBy',
  'enteredBy',
  'issuedBy',
  'confirmedBy',
  'createdBy',
  'recordedBy',
  'canceledBy',
  'settledBy',
] as const;

/** Fields naming the phone an acceptance was made for. */
const PHONE_FIELDS = ['phone', 'growerPhone', 'forPhone'] as const;

export interface TrailEvent {
  type: string;
  data: Record<string, unknown>;
  position: number;
  hash: string;
  recordedAt: string;
}

export interface TrailStep {
  label: string;
  /** The user id of who caused it, or null (the platform's own sweep). */
  actorUserId: string | null;
  /** The phone the step was made for, its last four digits only. */
  phoneEnding: string | null;
  at: string;
  position: number;
}

/** The steps of a contract's stream, in its order. */
export function trailOf(events: readonly TrailEvent[]): TrailStep[] {
  return events.map((event) => {
    const actor = ACTOR_FIELDS.map((f) => event.data[f]).find(
      (v): v is string => typeof v === 'string' && v.length > 0,
    );
    const phone = PHONE_FIELDS.map((f) => event.data[f]).find(
      (v): v is string => typeof v === 'string' && /\d{4}/.test(v),
    );
    return {
      label: TRAIL_LABELS[event.type] ?? UNLABELLED_STEP,
      actorUserId: actor ?? null,
      phoneEnding: phone ? phone.replace(/\D/g, '').slice(-4) : null,
      at: event.recordedAt,
      position: event.position,
    };
  });
}
