import { InProcessEventBus } from '../../adapters/events/in-process-event-bus.js';
import type { EventBus } from '../../ports/event-bus.js';
import { CORE_TOKENS } from './core.js';
import { provide, token } from './provide.js';
import type { Binding } from './provide.js';

export const EVENT_TOKENS = {
  eventBus: token<EventBus>('EventBus'),
} as const;

/**
 * The in-process bus with its listeners (`App.listen`, the modules', the request inspector's)
 * joined as it is made: the listeners are known before the container is built, so nothing
 * reaches into the built bus afterwards.
 */
export function eventsArea(subscribe: (bus: InProcessEventBus) => void) {
  return ({ container }: Binding): void => {
    provide(container, EVENT_TOKENS.eventBus, [CORE_TOKENS.logger], (logger) => {
      const bus = new InProcessEventBus(logger);
      subscribe(bus);
      return bus;
    });
  };
}
