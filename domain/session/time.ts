import { MisuseError } from '../shared/errors.js';
/**
 * The moment as epoch milliseconds. Time always comes in as an argument (the domain never reads
 * the clock); an invalid Date is refused because it would make every comparison false.
 */
export function timeOf(now: Date, what = 'now'): number {
  if (!(now instanceof Date) || Number.isNaN(now.getTime())) throw new MisuseError('session.bad-time', `${what} must be a valid Date`);
  return now.getTime();
}
