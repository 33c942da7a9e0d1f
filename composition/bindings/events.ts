import { InProcessEventBus } from '../../adapters/events/in-process-event-bus.js';
import type { EventBus } from '../../ports/event-bus.js';
import { CORE_TOKENS } from './core.js';
import { provide, token } from './provide.js';
import type { Binding } from './provide.js';

export const EVENT_TOKENS = {
  /** Publishing: with no origin when reached from the app's services; a request's own view through `ctx.service`. */
  eventBus: token<EventBus>('EventBus'),
  /** The bus with its listeners: what a request's view of the bus publishes through. */
  eventHub: token<InProcessEventBus>('EventHub'),
} as const;

/**
 * The in-process bus with its listeners (`App.listen`, the modules', the request inspector's)
 * joined as it is made: the listeners are known before the container is built, so nothing
 * reaches into the built bus afterwards.
 */
export function eventsArea(subscribe: (bus: InProcessEventBus) => void) {
  return ({ container }: Binding): void => {
    provide(container, EVENT_TOKENS.eventHub, [CORE_TOKENS.logger], (logger) => {
      const bus = new InProcessEventBus(logger);
      subscribe(bus);
      return bus;
    });
    provide(container, EVENT_TOKENS.eventBus, [EVENT_TOKENS.eventHub], (hub): EventBus => hub);
  };
}
