import 'reflect-metadata';
import { validate } from 'class-validator';
import { OptionalFieldsDto } from '../../test/support/optional-fields-dto.js';

async function problems(plain: Record<string, unknown>): Promise<Record<string, string[]>> {
  const errors = await validate(Object.assign(new OptionalFieldsDto(), plain));
  return Object.fromEntries(errors.map((error) => [error.property, Object.values(error.constraints ?? {})]));
}

describe('OptionalField', () => {
  it('skips the checks of an absent field, and of a nullable one that is null', async () => {
    expect(await problems({})).toEqual({});
    expect(await problems({ count: null })).toEqual({});
    expect(await problems({ label: 'x', count: 3 })).toEqual({});
  });

  it('refuses null, its own message first, unless the field is nullable', async () => {
    expect(await problems({ label: null })).toEqual({ label: ['label must not be null', 'label must be a string'] });
  });

  it('still checks a present value', async () => {
    expect(await problems({ label: 1, count: 'x' })).toEqual({
      label: ['label must be a string'],
      count: ['count must be an integer number'],
    });
  });
});
