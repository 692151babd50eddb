import { defineEvent, type EventDefinition, type StreamType } from '@filiere/event-store';
import {
  evolveAssignment,
  initialAssignmentState,
  inputEventSchemas,
  type AssignmentState,
  type InputEvent,
} from './domain/index.js';

/** The inputs area's event types, for the product's catalogue. */
export const inputEvents: EventDefinition<string, any>[] = Object.entries(inputEventSchemas).map(
  ([type, schema]) => defineEvent({ type, version: 1, schema }),
);

/**
 * Stream `seasoninput-<assignmentId>`: one provider assigned to one fertilizer line of an
 * industrial's link. (The category is the id's part before its first '-': `season-input-…`
 * would have been the seasons' own category.)
 */
export const assignmentStream: StreamType<AssignmentState> = {
  category: 'seasoninput',
  initialState: initialAssignmentState,
  evolve: (state, event) => evolveAssignment(state, event as unknown as InputEvent),
};
