import type { EventBus, EventClass } from '../../ports/event-bus.js';
import type { Logger } from '../../ports/logger.js';
import type { RequestOrigin } from '../../ports/request-origin.js';

/** A listener gets the event and the request it was published in (null outside any request). */
export type Listener<E> = (event: E, origin: RequestOrigin | null) => void | Promise<void>;

/**
 * Events told to listeners in this process, in the order they were registered. A listener
 * that fails is logged; the others still run and the publisher goes on, since what the event
 * reports has already happened.
 *
 * The bus itself publishes with no origin (a command, a job). `from(origin)` is one request's
 * view of it: what is published through that view reaches the same listeners with the
 * request's address and id. The origin is passed along explicitly rather than looked up in
 * an AsyncLocalStorage, which on Node 20 would turn on promise hooks for every promise of
 * the process (docs/decisions.md, 'The request's origin travels with its events').
 */
export class InProcessEventBus implements EventBus {
  private readonly listeners: { type: EventClass<object>; listener: Listener<never> }[] = [];

  constructor(private readonly logger: Logger) {}

  listen<E extends object>(type: EventClass<E>, listener: Listener<E>): this {
    this.listeners.push({ type, listener });
    return this;
  }

  publish(event: object): Promise<void> {
    return this.deliver(event, null);
  }

  /** The bus as one request publishes on it: its listeners hear the request's origin. */
  from(origin: RequestOrigin): EventBus {
    return { publish: (event) => this.deliver(event, origin) };
  }

  private async deliver(event: object, origin: RequestOrigin | null): Promise<void> {
    for (const { type, listener } of this.listeners) {
      if (!(event instanceof type)) continue;
      try {
        await listener(event as never, origin);
      } catch (error) {
        this.logger.error('an event listener failed', { event: event.constructor.name, error });
      }
    }
  }
}
