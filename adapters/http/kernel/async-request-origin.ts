import { AsyncLocalStorage } from 'node:async_hooks';
import type { RequestOrigin } from '../../../ports/request-origin.js';

type Origin = NonNullable<ReturnType<RequestOrigin['current']>>;

/**
 * The request being answered, carried through every `await` of its handler by Node's
 * AsyncLocalStorage: a listener that runs because the handler published an event sees the
 * client's address and the request id without the event carrying either.
 */
export class AsyncRequestOrigin implements RequestOrigin {
  readonly #storage = new AsyncLocalStorage<Origin>();

  current(): Origin | null {
    return this.#storage.getStore() ?? null;
  }

  run<T>(origin: Origin, work: () => T): T {
    return this.#storage.run(origin, work);
  }
}
