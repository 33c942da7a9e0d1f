/**
 * The Auth module's events. Plain values: listeners (`app.listen(Registered, …)`) get them
 * after the fact. They carry ids and public fields, never passwords or tokens.
 */
export class Registered {
  constructor(
    readonly userId: number,
    readonly name: string,
    readonly email: string,
    /** The provider whose sign-in made the account, or null for the register form. */
    readonly provider: string | null,
  ) {}
}

export class LoggedIn {
  constructor(
    readonly userId: number,
    readonly remember: boolean,
    /** `password`, or the provider's name for a social login. */
    readonly via: string,
  ) {}
}

export class LoggedOut {
  constructor(readonly userId: number) {}
}

export class PasswordReset {
  constructor(readonly userId: number) {}
}

/** A signed-in user changed their password, or set one they did not have (`hadPassword` false). */
export class PasswordChanged {
  constructor(
    readonly userId: number,
    readonly hadPassword: boolean,
  ) {}
}

export class Verified {
  constructor(readonly userId: number) {}
}
