/** A server-sent event stream read by the test as a browser's EventSource would. */
export interface EventStream {
  /** Resolves with the text received so far once `pattern` matches it (fails after `timeoutMs`). */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<string>;
  /** Resolves when the server ends the stream. */
  ended: Promise<void>;
  response: Response;
  close(): Promise<void>;
}

export async function openEventStream(url: string): Promise<EventStream> {
  const response = await fetch(url, { headers: { accept: 'text/event-stream' } });
  const body = response.body;
  if (body === null) throw new Error(`${url} answered ${response.status} without a body`);
  const reader = body.getReader() as ReadableStreamDefaultReader<Uint8Array>;
  const decoder = new TextDecoder();
  let received = '';
  const waiters = new Set<() => void>();
  const ended = (async () => {
    for (;;) {
      const chunk: { done: boolean; value?: Uint8Array | undefined } = await reader.read().catch(() => ({ done: true }));
      if (chunk.done) break;
      const value = chunk.value;
      received += decoder.decode(value, { stream: true });
      for (const waiter of waiters) waiter();
    }
  })();
  return {
    response,
    ended,
    waitFor(pattern, timeoutMs = 5000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (!pattern.test(received)) return;
          waiters.delete(check);
          clearTimeout(timer);
          resolve(received);
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`no ${String(pattern)} in time; received: ${JSON.stringify(received)}`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    async close() {
      await reader.cancel().catch(() => undefined);
    },
  };
}
