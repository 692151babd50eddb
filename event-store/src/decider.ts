/**
 * A decider in the Emmett style: pure functions, no I/O. `decide` turns a
 * command and the current state into events or throws a typed AppError;
 * `evolve` folds one event into the state.
 */
export interface Decider<State, Command, Event> {
  initialState(): State;
  decide(state: State, command: Command): Event[];
  evolve(state: State, event: Event): State;
}

/** Folds events into a state. */
export function fold<State, Event>(
  decider: Pick<Decider<State, unknown, Event>, 'initialState' | 'evolve'>,
  events: Iterable<Event>,
): State {
  let state = decider.initialState();
  for (const event of events) state = decider.evolve(state, event);
  return state;
}
