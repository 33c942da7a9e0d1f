import type { EventBus, EventClass } from '../../ports/event-bus.js';
import type { Logger } from '../../ports/logger.js';

export type Listener<E> = (event: E) => void | Promise<void>;

/**
 * Events told to listeners in this process, in the order they were registered. A listener
 * that fails is logged; the others still run and the publisher goes on, since what the event
 * reports has already happened.
 */
export class InProcessEventBus implements EventBus {
  private readonly listeners: { type: EventClass<object>; listener: Listener<never> }[] = [];

  constructor(private readonly logger: Logger) {}

  listen<E extends object>(type: EventClass<E>, listener: Listener<E>): this {
    this.listeners.push({ type, listener });
    return this;
  }

  async publish(event: object): Promise<void> {
    for (const { type, listener } of this.listeners) {
      if (!(event instanceof type)) continue;
      try {
        await listener(event as never);
      } catch (error) {
        this.logger.error('an event listener failed', { event: event.constructor.name, error });
      }
    }
  }
}
