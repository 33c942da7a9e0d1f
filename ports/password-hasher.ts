export interface PasswordHasher {
  hash(password: string): Promise<string>;
  /** False for a wrong password and for a hash this hasher cannot read; never throws for those. */
  verify(hash: string, password: string): Promise<boolean>;
}
