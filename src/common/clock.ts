import { Injectable } from '@nestjs/common';

/**
 * The time as the service sees it, in epoch milliseconds. Everything that stores or compares
 * a time (token expiry, last login, login throttling) asks this provider rather than `Date`,
 * so tests can move time forward without sleeping or faking timers globally.
 */
@Injectable()
export class Clock {
  now(): number {
    return Date.now();
  }
}

/** Epoch ms as ISO 8601 UTC, the wire form of every time; null stays null. */
export function isoTime(ms: number): string;
export function isoTime(ms: number | null): string | null;
export function isoTime(ms: number | null): string | null {
  return ms === null ? null : new Date(ms).toISOString();
}
