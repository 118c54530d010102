import { apiErrorFromDatabase } from './database-errors.js';
import { isValueRefused } from './value-refusals.js';

describe('values the database refuses', () => {
  it.each([
    [{ code: '22001', message: 'value too long for type character varying(4)' }],
    [{ code: '22003', message: 'numeric field overflow' }],
    [{ code: '22007', message: 'invalid input syntax for type date: "2026-02-30"' }],
    [{ code: '22008', message: 'date/time field value out of range: "0000-01-01"' }],
    [{ code: '22021', message: 'invalid byte sequence for encoding "UTF8": 0x00' }],
    [{ code: '22P02', message: 'invalid input syntax for type integer: "2.5"' }],
    [{ code: 'ER_DATA_TOO_LONG', errno: 1406, message: "Data too long for column 'memo' at row 1" }],
    [{ code: 'ER_TRUNCATED_WRONG_VALUE', errno: 1292, message: "Incorrect datetime value: '2026-02-30' for column 'at'" }],
    [{ code: 'ER_TRUNCATED_WRONG_VALUE_FOR_FIELD', errno: 1366, message: "Incorrect integer value: 'x' for column 'qty'" }],
  ])('answers 400 / 4000 for %o, without the driver text', (error) => {
    const mapped = apiErrorFromDatabase({ driverError: error, message: error.message });
    expect(mapped).toMatchObject({ statusCode: 400, errorCode: 4000 });
    expect(mapped?.message).not.toContain(error.message);
  });

  it('leaves other codes alone', () => {
    expect(isValueRefused('23505', 1062)).toBe(false);
    expect(isValueRefused(undefined, undefined)).toBe(false);
  });
});
