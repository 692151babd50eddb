/** The NOTIFY channel every committing append signals with the new head position. */
export const EVENTS_CHANNEL = 'filiere_events';

export interface EventMetadata {
  commandId?: string;
  causationId?: string;
  correlationId?: string;
  userId?: string;
}

export interface RecordedEvent<Type extends string = string, Data = unknown> {
  position: number;
  streamId: string;
  version: number;
  type: Type;
  schemaVersion: number;
  data: Data;
  metadata: EventMetadata;
  recordedAt: Date;
}

/** An event to append: its type must be defined in the catalogue. */
export interface NewEvent<Type extends string = string, Data = unknown> {
  type: Type;
  data: Data;
}

/** `any`: whatever the stream holds; `noStream`: it must be empty; n: it must be at version n. */
export type ExpectedVersion = 'any' | 'noStream' | number;

export interface StreamWrite {
  streamId: string;
  expectedVersion: ExpectedVersion;
  events: NewEvent[];
}

/** Category of a stream id `<category>-<id>`: the text before the first `-`. */
export function streamCategory(streamId: string): string {
  const dash = streamId.indexOf('-');
  return dash < 0 ? streamId : streamId.slice(0, dash);
}
