import type { IncomingMessage, Server as NodeServer, ServerResponse } from 'node:http';

export type RequestListener = (request: IncomingMessage, response: ServerResponse) => void;

/**
 * Puts `answer` in front of the node listener's one request listener (hapi's, or a short path
 * already put in front of it), which `answer` is given to pass on the requests it does not take.
 * The short paths (`health-first.ts`, `page-first.ts`) are installed this way, one in front of
 * the other. Nothing changes, and false is returned, when the listener does not have exactly one
 * request listener: someone else listens too, so hapi keeps every request.
 */
export function listenInFront(listener: NodeServer, answer: (request: IncomingMessage, response: ServerResponse, passOn: RequestListener) => void): boolean {
  const listeners = listener.listeners('request') as RequestListener[];
  const behind = listeners[0];
  if (listeners.length !== 1 || behind === undefined) return false;
  listener.removeListener('request', behind);
  listener.on('request', (request: IncomingMessage, response: ServerResponse) => answer(request, response, behind));
  return true;
}
