/** The class of an event, as listeners name it: `app.listen(Registered, …)`. */
export type EventClass<E extends object> = abstract new (...args: never[]) => E;

/**
 * What happened, told to whoever listens (`Registered`, `LoggedIn`, …). Listeners run after
 * the fact and in order; one that fails is logged and does not undo what happened, nor stop
 * the other listeners.
 */
export interface EventBus {
  publish(event: object): Promise<void>;
}
