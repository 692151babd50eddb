import { hash } from 'node:crypto';
import { canonicalJson } from './canonical-json.js';

/** The hash before the first event. */
export const GENESIS_HASH = '0'.repeat(64);

/** What the hash of one event covers (recorded_at is not part of it). */
export interface HashedFields {
  position: number;
  streamId: string;
  version: number;
  type: string;
  schemaVersion: number;
  data: unknown;
  metadata: unknown;
}

/** hash_n = sha256(hash_{n-1} ‖ canonical JSON of the event), hex. */
export function eventHash(previousHash: string, event: HashedFields): string {
  return hash('sha256', previousHash + canonicalJson(canonicalFields(event)), 'hex');
}

function canonicalFields(event: HashedFields): HashedFields {
  const { position, streamId, version, type, schemaVersion, data, metadata } = event;
  return { position, streamId, version, type, schemaVersion, data, metadata };
}

/**
 * The canonical text of an event split around its position, which is known
 * only under the append lock: `prefix + position + suffix` equals
 * canonicalJson of the event (keys: data, metadata, position, schemaVersion,
 * streamId, type, version). The database chains the hashes from these parts.
 */
export function hashParts(
  event: Omit<HashedFields, 'data' | 'metadata' | 'position'> & {
    dataJson: string;
    metadataJson: string;
  },
): { prefix: string; suffix: string } {
  return {
    prefix: `{"data":${event.dataJson},"metadata":${event.metadataJson},"position":`,
    suffix:
      `,"schemaVersion":${event.schemaVersion},"streamId":${JSON.stringify(event.streamId)}` +
      `,"type":${JSON.stringify(event.type)},"version":${event.version}}`,
  };
}
