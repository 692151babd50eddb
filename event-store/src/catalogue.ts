import type { z } from 'zod';
import { EventDecodeError, EventEncodeError } from './errors.js';
import type { NewEvent } from './types.js';

/**
 * The event catalogue: each event type has a zod schema and a schema version.
 * Appends are checked against it; reads decode through it, and a stored event
 * of an older schema version goes through the definition's `upcast` first.
 */
export interface EventDefinition<Type extends string = string, Data = unknown> {
  type: Type;
  version: number;
  schema: z.ZodType<Data>;
  /** Turns a payload stored with schema version `fromVersion` (< version) into the current shape. */
  upcast?: (data: unknown, fromVersion: number) => unknown;
  /** Builds an event of this type (typed). */
  create(data: Data): NewEvent<Type, Data>;
}

/**
 * Describes an event type (no registry: a catalogue is built from a list of definitions).
 * Each bounded context lists its definitions in its module; the product's catalogue is
 * built from every module (services/api/src/kernel/catalogue.ts).
 */
export function defineEvent<Type extends string, Schema extends z.ZodType>(spec: {
  type: Type;
  version: number;
  schema: Schema;
  upcast?: (data: unknown, fromVersion: number) => unknown;
}): EventDefinition<Type, z.infer<Schema>> {
  if (!Number.isInteger(spec.version) || spec.version < 1) {
    throw new Error(`Event type "${spec.type}": version must be an integer ≥ 1`);
  }
  return {
    ...spec,
    schema: spec.schema as z.ZodType<z.infer<Schema>>,
    create: (data) => ({ type: spec.type, data }),
  };
}

/**
 * The event types one process reads and writes, built explicitly from their definitions
 * and handed to whoever encodes or decodes events (event store, pipeline, projectors,
 * rebuild, check). A type it does not know is an error, never a pass-through.
 */
export class EventCatalogue {
  private readonly definitions = new Map<string, EventDefinition>();

  constructor(definitions: Iterable<EventDefinition<string, any>> = []) {
    for (const definition of definitions) {
      const existing = this.definitions.get(definition.type);
      if (existing && existing !== definition) {
        throw new Error(`Event type "${definition.type}" is defined twice`);
      }
      this.definitions.set(definition.type, definition as EventDefinition);
    }
  }

  get(type: string): EventDefinition | undefined {
    return this.definitions.get(type);
  }

  types(): string[] {
    return [...this.definitions.keys()];
  }

  /** Checks an event to append; returns its payload as parsed and its schema version. */
  encode(event: NewEvent): { data: unknown; schemaVersion: number } {
    const definition = this.definitions.get(event.type);
    if (!definition) throw new EventEncodeError(event.type, 'type not in the catalogue');
    const parsed = definition.schema.safeParse(event.data);
    if (!parsed.success) throw new EventEncodeError(event.type, parsed.error.message);
    return { data: parsed.data, schemaVersion: definition.version };
  }

  /** Decodes a stored payload, upcasting older schema versions; throws EventDecodeError. */
  decode(position: number, type: string, schemaVersion: number, data: unknown): unknown {
    const definition = this.definitions.get(type);
    if (!definition) throw new EventDecodeError(position, type, 'type not in the catalogue');
    let payload = data;
    if (schemaVersion !== definition.version) {
      if (schemaVersion > definition.version || !definition.upcast) {
        throw new EventDecodeError(
          position,
          type,
          `schema version ${schemaVersion} but the catalogue has version ${definition.version}` +
            (definition.upcast ? '' : ' and no upcaster'),
        );
      }
      payload = definition.upcast(data, schemaVersion);
    }
    const parsed = definition.schema.safeParse(payload);
    if (!parsed.success) throw new EventDecodeError(position, type, parsed.error.message);
    return parsed.data;
  }
}
