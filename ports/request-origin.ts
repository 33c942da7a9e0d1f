/**
 * Where the work in progress came from: the client's address and the request id of the HTTP
 * request being answered, or null outside a request (a command, a job). Event listeners (the
 * Audit module) read it, since events carry what happened, not who asked over which wire.
 */
export interface RequestOrigin {
  current(): { readonly ipAddress: string; readonly requestId: string } | null;
}
