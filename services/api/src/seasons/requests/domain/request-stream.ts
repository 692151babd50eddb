import type { StreamType } from '@filiere/event-store';
import type { RequestEvent, RequestStatus, RequestType } from './events.js';

/** An accepted INPUT request's delivery: CREATED (waiting for the provider) or DONE. */
export interface RequestDelivery {
  status: 'CREATED' | 'DONE';
  code: string;
  assignmentId?: number;
  providerUserId?: string;
  deliveredAt?: string;
  debtId?: string;
}

/** The folded state of stream `seasonrequest-<id>`. */
export interface RequestState {
  exists: boolean;
  requestId: number | null;
  reference: string;
  type: RequestType | null;
  status: RequestStatus;
  delivery: RequestDelivery | null;
  seasonId: number | null;
  linkId: number | null;
  industrialUserId: string | null;
  sfdUserId: string | null;
  growerId: string | null;
  growerUserId: string | null;
  fertilizerId: number | null;
  quantityKg: number | null;
  amount: number;
  /** PINEAPLE, SOCIAL: the debt opened on acceptance. */
  debtId: string | null;
}

export const requestStreamId = (requestId: number): string => `seasonrequest-${requestId}`;

export function initialRequestState(): RequestState {
  return {
    exists: false,
    requestId: null,
    reference: '',
    type: null,
    status: 'CREATED',
    delivery: null,
    seasonId: null,
    linkId: null,
    industrialUserId: null,
    sfdUserId: null,
    growerId: null,
    growerUserId: null,
    fertilizerId: null,
    quantityKg: null,
    amount: 0,
    debtId: null,
  };
}

export function evolveRequest(state: RequestState, event: RequestEvent): RequestState {
  switch (event.type) {
    case 'GrowerRequestFiled': {
      const d = event.data;
      return {
        ...initialRequestState(),
        exists: true,
        requestId: d.requestId,
        reference: d.reference,
        type: d.type,
        status: 'CREATED',
        seasonId: d.seasonId,
        linkId: d.linkId,
        industrialUserId: d.industrialUserId,
        sfdUserId: d.sfdUserId,
        growerId: d.growerId,
        growerUserId: d.growerUserId,
        fertilizerId: d.fertilizerId,
        quantityKg: d.quantityKg,
        amount: d.amount,
      };
    }
    case 'GrowerRequestAccepted': {
      const d = event.data;
      return {
        ...state,
        status: 'CONFIRMED',
        debtId: d.debtId,
        delivery: d.code ? { status: 'CREATED', code: d.code } : null,
      };
    }
    case 'GrowerRequestRejected':
      return { ...state, status: 'REJECTED' };
    case 'InputDelivered': {
      const d = event.data;
      if (!state.delivery) return state;
      return {
        ...state,
        delivery: {
          ...state.delivery,
          status: 'DONE',
          assignmentId: d.assignmentId,
          providerUserId: d.providerUserId,
          deliveredAt: d.deliveredAt,
          debtId: d.debtId,
        },
      };
    }
  }
}

/** Stream category `seasonrequest`: one grower's request. */
export const requestStream: StreamType<RequestState> = {
  category: 'seasonrequest',
  initialState: initialRequestState,
  evolve: (state, event) => evolveRequest(state, event as unknown as RequestEvent),
};
