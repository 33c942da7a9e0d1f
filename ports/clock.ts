/** The only way code outside the adapters learns the time. */
export interface Clock {
  now(): Date;
}
