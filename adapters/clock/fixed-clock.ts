import type { Clock } from '../../ports/clock.js';

/** A clock that moves only when told to: for tests of expiry, lifetimes and windows. */
export class FixedClock implements Clock {
  private current: number;

  constructor(start: Date | string = '2026-01-01T00:00:00Z') {
    this.current = new Date(start).getTime();
  }

  now(): Date {
    return new Date(this.current);
  }

  set(at: Date | string): void {
    this.current = new Date(at).getTime();
  }

  advance(milliseconds: number): void {
    this.current += milliseconds;
  }
}
