import type { LinkAmounts } from './amounts.js';
import type { FertilizerLine, SeasonEvent } from './events.js';

/** PENDING: invited; CONFIRMED: accepted; CANCELED: the invitation expired ('Expiré'). */
export type LinkStatus = 'PENDING' | 'CONFIRMED' | 'CANCELED';

export interface SeasonLink extends LinkAmounts {
  linkId: number;
  userId: string;
  status: LinkStatus;
  attachedAt: string;
  expiresAt: string;
  acceptedAt: string | null;
}

/** The folded state of stream `season-<id>`. */
export interface SeasonState {
  exists: boolean;
  seasonId: number | null;
  label: string;
  from: string;
  to: string;
  unitProductAmount: number;
  productionIndex: number;
  quotity: number;
  fertilizers: FertilizerLine[];
  isActive: boolean;
  archived: boolean;
  /** The links by industrial user id (a detached link is removed). */
  links: Record<string, SeasonLink>;
}

export const seasonStreamId = (seasonId: number): string => `season-${seasonId}`;

export function initialSeasonState(): SeasonState {
  return {
    exists: false,
    seasonId: null,
    label: '',
    from: '',
    to: '',
    unitProductAmount: 0,
    productionIndex: 0,
    quotity: 0,
    fertilizers: [],
    isActive: false,
    archived: false,
    links: {},
  };
}

function withLink(
  state: SeasonState,
  userId: string,
  change: (link: SeasonLink) => SeasonLink,
): SeasonState {
  const link = state.links[userId];
  if (!link) return state;
  return { ...state, links: { ...state.links, [userId]: change(link) } };
}

export function evolveSeason(state: SeasonState, event: SeasonEvent): SeasonState {
  switch (event.type) {
    case 'SeasonCreated': {
      const { createdBy: _by, ...fields } = event.data;
      return { ...initialSeasonState(), ...fields, exists: true };
    }
    case 'SeasonEdited': {
      const { editedBy: _by, repriced, ...fields } = event.data;
      let next: SeasonState = { ...state, ...fields };
      for (const r of repriced) {
        next = withLink(next, r.userId, (link) => ({
          ...link,
          quantity: r.quantity,
          productionAmount: r.productionAmount,
          fertilizerAmount: r.fertilizerAmount,
          minSupplyAmount: r.minSupplyAmount,
        }));
      }
      return next;
    }
    case 'SeasonArchived':
      return { ...state, archived: true, isActive: false };
    case 'SeasonActivated':
      return { ...state, isActive: true };
    case 'IndustrialAttached': {
      const d = event.data;
      return {
        ...state,
        links: {
          ...state.links,
          [d.userId]: {
            linkId: d.linkId,
            userId: d.userId,
            quantity: d.quantity,
            productionAmount: d.productionAmount,
            fertilizerAmount: d.fertilizerAmount,
            minSupplyAmount: d.minSupplyAmount,
            status: 'PENDING',
            attachedAt: d.attachedAt,
            expiresAt: d.expiresAt,
            acceptedAt: null,
          },
        },
      };
    }
    case 'IndustrialAccepted': {
      const d = event.data;
      return withLink(state, d.userId, (link) => ({
        ...link,
        quantity: d.quantity,
        productionAmount: d.productionAmount,
        fertilizerAmount: d.fertilizerAmount,
        minSupplyAmount: d.minSupplyAmount,
        status: 'CONFIRMED',
        acceptedAt: d.acceptedAt,
      }));
    }
    case 'InvitationExpired':
      return withLink(state, event.data.userId, (link) => ({ ...link, status: 'CANCELED' }));
    case 'IndustrialDetached': {
      const links = { ...state.links };
      delete links[event.data.userId];
      return { ...state, links };
    }
  }
}
