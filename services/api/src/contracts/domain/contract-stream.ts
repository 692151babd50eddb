import type { CodeScheme, ContractEvent, Recovery } from './events.js';

/**
 * PENDING ('En attente') → CONFIRMED ('prêt pour la livraison') → DELIVERED ('Livraison
 * disponible') → COMPLETED ('Terminé'); CONFIRMED past its date → OUTTIME ('Hors Délais');
 * PENDING, CONFIRMED or OUTTIME → CANCELED ('Expiré', hold released).
 */
export type ContractStatus =
  'PENDING' | 'CONFIRMED' | 'DELIVERED' | 'COMPLETED' | 'OUTTIME' | 'CANCELED';

export interface Settlement {
  deliveredAmount: number;
  payableAmount: number;
  shortfall: number;
  capturedFromHold: number;
  releasedFromHold: number;
  extraFromAvailable: number;
  recoveries: Recovery[];
  growerNet: number;
  /** The withdrawal paying the net out to the grower's mobile money number, if any. */
  payoutId?: string | null | undefined;
}

/** The code the grower was last sent (earlier ones no longer count). */
export interface AcceptanceCode {
  codeId: string;
  phone: string;
  salt: string;
  scheme: CodeScheme;
  codeHash: string;
  issuedAt: string;
  wrongAttempts: number;
}

/** The grower's recorded consent (DeliveryContractAccepted). */
export interface Acceptance {
  method: 'CODE' | 'GROWER_SIGNED_IN';
  acceptedBy: string;
  acceptedAt: string;
  phone: string | null;
}

/** The folded state of stream `contract-<contractId>`. Plain data. */
export interface ContractState {
  exists: boolean;
  contractId: string | null;
  reference: string;
  parentId: string | null;
  status: ContractStatus | null;
  aggregatorUserId: string;
  growerId: string;
  growerUserId: string;
  plotId: string;
  quantityKg: number;
  amount: number;
  deliveryDate: string;
  holdId: string;
  createdAt: string;
  deliveredKg: number | null;
  deliveredOn: string | null;
  settlement: Settlement | null;
  productType: 'CAYENNE_LISSE' | 'PAIN_DE_SUCRE' | null;
  acceptanceCode: AcceptanceCode | null;
  /** How many codes were sent for this contract (the first included). */
  codesIssued: number;
  acceptance: Acceptance | null;
}

export const contractStreamId = (contractId: string): string => `contract-${contractId}`;

export function initialContractState(): ContractState {
  return {
    exists: false,
    contractId: null,
    reference: '',
    parentId: null,
    status: null,
    aggregatorUserId: '',
    growerId: '',
    growerUserId: '',
    plotId: '',
    quantityKg: 0,
    amount: 0,
    deliveryDate: '',
    holdId: '',
    createdAt: '',
    deliveredKg: null,
    deliveredOn: null,
    settlement: null,
    productType: null,
    acceptanceCode: null,
    codesIssued: 0,
    acceptance: null,
  };
}

export function evolveContract(state: ContractState, event: ContractEvent): ContractState {
  switch (event.type) {
    case 'DeliveryContractCreated': {
      const d = event.data;
      return {
        ...state,
        exists: true,
        contractId: d.contractId,
        reference: d.reference,
        parentId: d.parentId,
        status: 'PENDING',
        aggregatorUserId: d.aggregatorUserId,
        growerId: d.growerId,
        growerUserId: d.growerUserId,
        plotId: d.plotId,
        quantityKg: d.quantityKg,
        amount: d.amount,
        deliveryDate: d.deliveryDate,
        holdId: d.holdId,
        createdAt: d.createdAt,
        productType: d.productType,
      };
    }
    case 'AcceptanceCodeIssued': {
      const d = event.data;
      return {
        ...state,
        acceptanceCode: {
          codeId: d.codeId,
          phone: d.phone,
          salt: d.salt,
          scheme: d.scheme ?? 'SCRYPT',
          codeHash: d.codeHash,
          issuedAt: d.issuedAt,
          wrongAttempts: 0,
        },
        codesIssued: state.codesIssued + 1,
      };
    }
    case 'AcceptanceCodeRejected':
      return state.acceptanceCode?.codeId === event.data.codeId
        ? {
            ...state,
            acceptanceCode: { ...state.acceptanceCode, wrongAttempts: event.data.wrongAttempts },
          }
        : state;
    case 'DeliveryContractAccepted': {
      const d = event.data;
      return {
        ...state,
        acceptance: {
          method: d.method,
          acceptedBy: d.acceptedBy,
          acceptedAt: d.acceptedAt,
          phone: d.phone,
        },
      };
    }
    case 'DeliveryContractConfirmed':
      return { ...state, status: 'CONFIRMED' };
    case 'DeliveryRecorded':
      return {
        ...state,
        status: 'DELIVERED',
        deliveredKg: event.data.deliveredKg,
        deliveredOn: event.data.deliveredOn,
      };
    case 'DeliveryContractOutOfTime':
      return { ...state, status: 'OUTTIME' };
    case 'DeliveryContractCanceled':
      return { ...state, status: 'CANCELED' };
    case 'DeliveryContractSettled': {
      const {
        contractId: _c,
        deliveredKg: _k,
        settledBy: _b,
        settledAt: _a,
        ...settlement
      } = event.data;
      return { ...state, status: 'COMPLETED', settlement };
    }
    default:
      return state;
  }
}

export const contractStream = {
  category: 'contract',
  initialState: initialContractState,
  evolve: evolveContract,
};
