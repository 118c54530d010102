import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { isCalendarDate, parseDate, parseDateTime, zoneOffsetMinutes } from './date-values.js';

const pad = (n: number, width = 2): string => String(n).padStart(width, '0');

describe('isCalendarDate', () => {
  it('agrees with the proleptic Gregorian calendar for every day of every month', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1000, max: 9999 }), fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: 31 }), (year, month, day) => {
        const rolled = new Date(Date.UTC(year, month - 1, day));
        expect(isCalendarDate(year, month, day)).toBe(rolled.getUTCMonth() === month - 1 && rolled.getUTCDate() === day);
      }),
      { numRuns: 5000 },
    );
  });

  it.each([
    [2024, 2, 29, true],
    [2026, 2, 29, false],
    [1900, 2, 29, false],
    [2000, 2, 29, true],
    [2026, 4, 31, false],
    [2026, 12, 31, true],
    [2026, 0, 1, false],
    [2026, 13, 1, false],
    [2026, 1, 0, false],
  ])('%i-%i-%i: %s', (year, month, day, valid) => {
    expect(isCalendarDate(year, month, day)).toBe(valid);
  });
});

describe('parseDate', () => {
  it('takes exactly the real days from 1000-01-01 to 9999-12-31', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10_500 }), fc.integer({ min: 0, max: 13 }), fc.integer({ min: 0, max: 32 }), (year, month, day) => {
        const text = `${pad(year, 4)}-${pad(month)}-${pad(day)}`;
        const real = year >= 1000 && year <= 9999 && isCalendarDate(year, month, day);
        expect(parseDate(text)).toBe(real ? text : undefined);
      }),
      { numRuns: 5000 },
    );
  });

  it.each(['2026-1-01', '2026-01-1', ' 2026-01-01', '2026-01-01 ', '2026/01/01', '2026-01-01T00:00:00Z', '+2026-01-01', '20260101'])('refuses %j', (text) => {
    expect(parseDate(text)).toBeUndefined();
  });
});

describe('parseDateTime', () => {
  it('gives the instant Date.UTC gives for any real time, zone applied', () => {
    fc.assert(
      fc.property(
        fc.date({ min: new Date('1000-01-02T00:00:00Z'), max: new Date('9999-12-30T00:00:00Z'), noInvalidDate: true }),
        fc.integer({ min: -14 * 60, max: 14 * 60 }),
        (instant, offset) => {
          const local = new Date(instant.getTime() + offset * 60_000);
          const zone = `${offset < 0 ? '-' : '+'}${pad(Math.floor(Math.abs(offset) / 60))}:${pad(Math.abs(offset) % 60)}`;
          const text = `${local.toISOString().slice(0, 23)}${zone}`;
          expect(parseDateTime(text, 3)).toBe(instant.toISOString());
        },
      ),
      { numRuns: 3000 },
    );
  });

  it.each([
    ['2026-02-30T00:00:00Z', 3],
    ['2026-01-01T24:00:00Z', 3],
    ['2026-01-01T23:59:60Z', 3],
    ['2026-01-01T23:60:00Z', 3],
    ['2026-01-01T12:00:00+14:01', 3],
    ['2026-01-01T12:00:00-15:00', 3],
    ['2026-01-01T12:00:00+02:60', 3],
    ['1000-01-01T00:00:00+00:01', 3],
    ['9999-12-31T23:59:59-00:01', 3],
    ['0999-12-31T23:59:59Z', 3],
    ['2026-01-01T12:00:00.1234567890Z', 3],
    ['2026-01-01', 3],
    ['2026-01-01T12:00:00ZZ', 3],
  ])('refuses %j', (text, digits) => {
    expect(parseDateTime(text, digits)).toBeUndefined();
  });

  it.each([
    ['2026-01-01T12:34:56.789Z', 3, '2026-01-01T12:34:56.789Z'],
    ['2026-01-01T12:34:56.789Z', 1, '2026-01-01T12:34:56.700Z'],
    ['2026-01-01T12:34:56.789Z', 0, '2026-01-01T12:34:56.000Z'],
    ['2026-01-01T12:34:56.789123Z', 6, '2026-01-01T12:34:56.789Z'],
    ['2026-01-01 12:34', 3, '2026-01-01T12:34:00.000Z'],
    ['2026-01-01T00:30:00+02', 3, '2025-12-31T22:30:00.000Z'],
    ['2026-01-01T00:30:00-0530', 3, '2026-01-01T06:00:00.000Z'],
    ['2024-02-29T23:59:59.999z', 3, '2024-02-29T23:59:59.999Z'],
  ])('%s with %i fraction digits is %s', (text, digits, expected) => {
    expect(parseDateTime(text, digits)).toBe(expected);
  });
});

describe('zoneOffsetMinutes', () => {
  it.each([
    [undefined, 0],
    ['Z', 0],
    ['+02:00', 120],
    ['-0530', -330],
    ['+14:00', 840],
    ['+14:30', undefined],
    ['-12:60', undefined],
  ])('%s is %s', (zone, minutes) => {
    expect(zoneOffsetMinutes(zone)).toBe(minutes);
  });
});
