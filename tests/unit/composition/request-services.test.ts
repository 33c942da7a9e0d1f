import { Container } from 'inversify';
import { describe, expect, it } from 'vitest';
import { InProcessEventBus } from '../../../adapters/events/in-process-event-bus.js';
import { MemoryLogger } from '../../../adapters/log/memory-logger.js';
import { EVENT_TOKENS } from '../../../composition/bindings/events.js';
import { provide, token } from '../../../composition/bindings/provide.js';
import { parseConfig } from '../../../composition/config.js';
import { requestServices } from '../../../composition/request-services.js';
import { appServices } from '../../../composition/services.js';
import type { EventBus } from '../../../ports/event-bus.js';
import type { RequestOrigin } from '../../../ports/request-origin.js';

const config = parseConfig({ APP_KEY: `base64:${Buffer.alloc(32, 1).toString('base64')}` }, '/srv/app');

/** A use case that publishes: built on the bus. */
class Publisher {
  constructor(readonly events: EventBus) {}
}
/** A service built on the publisher: on the bus too, one step removed. */
class Flow {
  constructor(
    readonly publisher: Publisher,
    readonly helper: Helper,
  ) {}
}
/** A service that never publishes. */
class Helper {}

function setup() {
  const container = new Container();
  const heard: { event: object; origin: RequestOrigin | null }[] = [];
  const tokens = { publisher: token<Publisher>('Publisher'), flow: token<Flow>('Flow'), helper: token<Helper>('Helper') };
  provide(container, EVENT_TOKENS.eventHub, [], () => new InProcessEventBus(new MemoryLogger()).listen(Object, (event, origin) => void heard.push({ event, origin })));
  provide(container, EVENT_TOKENS.eventBus, [EVENT_TOKENS.eventHub], (hub): EventBus => hub);
  provide(container, tokens.helper, [], () => new Helper());
  provide(container, tokens.publisher, [EVENT_TOKENS.eventBus], (events) => new Publisher(events));
  provide(container, tokens.flow, [tokens.publisher, tokens.helper], (publisher, helper) => new Flow(publisher, helper));
  const services = appServices(config, container, []);
  return { services, tokens, heard, forRequest: requestServices(services) };
}

describe("requestServices: the app's services as one request sees them (ctx.service)", () => {
  it('a service built on the bus, directly or through another, is built again per request and publishes with that request\'s origin', async () => {
    const { services, tokens, heard, forRequest } = setup();
    const one = forRequest({ ipAddress: '203.0.113.1', requestId: 'req-1' });
    const two = forRequest({ ipAddress: '203.0.113.2', requestId: 'req-2' });

    const flowOne = one(tokens.flow) as Flow;
    const flowTwo = two(tokens.flow) as Flow;
    expect(flowOne).not.toBe(flowTwo);
    expect(flowOne).not.toBe(services.get(tokens.flow));
    // Once per request: the flow's publisher is the one the request gets for its own token.
    expect(one(tokens.flow)).toBe(flowOne);
    expect(one(tokens.publisher)).toBe(flowOne.publisher);

    await flowTwo.publisher.events.publish({ n: 2 });
    await flowOne.publisher.events.publish({ n: 1 });
    await (one(EVENT_TOKENS.eventBus) as EventBus).publish({ n: 3 });
    await services.get(tokens.publisher).events.publish({ n: 4 });
    expect(heard).toEqual([
      { event: { n: 2 }, origin: { ipAddress: '203.0.113.2', requestId: 'req-2' } },
      { event: { n: 1 }, origin: { ipAddress: '203.0.113.1', requestId: 'req-1' } },
      { event: { n: 3 }, origin: { ipAddress: '203.0.113.1', requestId: 'req-1' } },
      { event: { n: 4 }, origin: null },
    ]);
  });

  it('a service not built on the bus is the app\'s singleton in every request', () => {
    const { services, tokens, forRequest } = setup();
    const helper = services.get(tokens.helper);
    expect(forRequest({ ipAddress: '203.0.113.1', requestId: 'req-1' })(tokens.helper)).toBe(helper);
    expect((forRequest({ ipAddress: '203.0.113.2', requestId: 'req-2' })(tokens.flow) as Flow).helper).toBe(helper);
  });
});
