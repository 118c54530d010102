import { Clock } from '../../src/common/clock.js';

/** A clock that stands still until a test moves it: expiry and throttle windows without sleeping. */
export class ManualClock extends Clock {
  private offsetMs = 0;

  override now(): number {
    return Date.now() + this.offsetMs;
  }

  advance(seconds: number): void {
    this.offsetMs += seconds * 1000;
  }
}
