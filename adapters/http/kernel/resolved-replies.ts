/** A redirect whose target is known: made by the views stage from `Redirect.route/intended/back`. */
export class ResolvedRedirect {
  constructor(
    readonly location: string,
    readonly status: 301 | 302 | 303,
  ) {}
}

/** A finished body with its status and headers (a rendered page or error answer). */
export class RawReply {
  constructor(
    readonly status: number,
    readonly contentType: string,
    readonly body: string,
    readonly headers: Record<string, string> = {},
  ) {}
}
