/**
 * Where an event came from: the client's address and the request id of the HTTP request whose
 * work published it. Events published outside a request (a command, a job, a schedule) have
 * none: listeners get null. Events carry what happened, not who asked over which wire, so the
 * origin travels beside the event (the bus hands it to each listener), never inside it.
 */
export interface RequestOrigin {
  readonly ipAddress: string;
  readonly requestId: string;
}
