import { pino } from 'pino';
import type { Principal } from '../../common/principal.js';
import { loadConfig } from '../../config/app-config.js';
import { ExtensionRunner } from '../extension-runner.js';
import { answerKeepsMetadata, freezeMetadata, metadataOf, withoutFields } from './answer-metadata.js';
import type { ApiEventsDefinition, JsonValue } from './api-event-definition.js';
import { ApiEventsError, type ResourceNames } from './api-events-check.js';
import { ApiEvents, type EventSite } from './api-events.js';

const names: ResourceNames = {
  versions: ['v1', 'v2'],
  resolve: (name, version) =>
    name.toLowerCase() === 'customer' || (name === 'Recent' && version === 'v2') ? name.toLowerCase() : undefined,
  hasAttribute: (name) => name === 'balance',
};
const runner = new ExtensionRunner(loadConfig({ EXTENSION_TIMEOUT_MS: '200' }), pino({ level: 'silent' }));
const principal: Principal = { tokenId: 1, userIdentifier: 'ann', roleNames: ['r'], globals: { region: 'North' } };
const site = (method: string, resource = 'customer', version = 'v1'): EventSite => ({
  resource,
  table: resource,
  method,
  version,
  key: undefined,
  query: {},
  principal,
  requestId: 'r1',
});

describe('ApiEvents', () => {
  it('costs nothing without events: the body and answer are the very same objects', async () => {
    const events = new ApiEvents(undefined, names, runner);
    const body = { name: 'x' };
    expect(events.declared).toBe(false);
    expect(await events.request(site('POST'), body)).toBe(body);
    const answer = [body];
    expect(await events.response(site('GET'), answer)).toBe(answer);
  });

  it('runs only the events whose resource, method and version match, PATCH as PUT', async () => {
    const ran: string[] = [];
    const definition: ApiEventsDefinition = {
      request: [
        { name: 'all', run: () => void ran.push('all') },
        { name: 'putsOnCustomers', resources: ['Customer'], methods: ['PUT'], run: () => void ran.push('put') },
        { name: 'v2Only', versions: ['v2'], run: () => void ran.push('v2') },
      ],
    };
    const events = new ApiEvents(definition, names, runner);
    await events.request(site('PATCH'), {});
    await events.request(site('GET', 'other', 'v2'), undefined);
    expect(ran).toEqual(['all', 'put', 'all', 'v2']);
  });

  it('gives an event a copy of the body, and writes what the event left in it; an added field is left out of writes', async () => {
    const events = new ApiEvents(
      {
        request: [{ name: 'upper', run: (r) => void ((r.body as { name: string }).name = 'X') }],
        response: [{ name: 'status', adds: ['status'], run: () => undefined }],
      },
      names,
      runner,
    );
    const body = { name: 'x', status: 'ok', nested: [{ status: 'ok', '@metadata': { status: 'kept' } }] };
    const sent = await events.request(site('PUT'), body);
    expect(sent).toEqual({ name: 'X', nested: [{ '@metadata': { status: 'kept' } }] });
  });

  it('takes what a synchronous or an asynchronous event left, and gives an event that asks an AbortSignal', async () => {
    const signals: boolean[] = [];
    const events = new ApiEvents(
      {
        request: [
          {
            name: 'sync',
            run: (r) => {
              signals.push(r.signal instanceof AbortSignal && !r.signal.aborted);
              (r.body as { n: number }).n += 1;
            },
          },
          {
            name: 'async',
            run: async (r) => {
              await new Promise((resolve) => setTimeout(resolve, 1));
              (r.body as { n: number }).n *= 10;
            },
          },
        ],
        response: [
          {
            name: 'later',
            run: async (r) => {
              await Promise.resolve();
              (r.answer as Array<Record<string, JsonValue>>)[0]!.tag = 'late';
            },
          },
        ],
      },
      names,
      runner,
    );
    expect(await events.request(site('POST'), { n: 1 })).toEqual({ n: 20 });
    expect(await events.response(site('GET'), [{ n: 1 }])).toEqual([{ n: 1, tag: 'late' }]);
    expect(signals).toEqual([true]);
  });

  it('refuses an answer whose @metadata an event changed or made up', async () => {
    const answer = [{ '@metadata': { href: 'h', checksum: 'c' }, name: 'x' }];
    const inPlace = new ApiEvents(
      {
        response: [
          {
            name: 'scribble',
            run: (r) => void ((r.answer as Array<{ '@metadata': { checksum: string } }>)[0]!['@metadata'].checksum = 'y'),
          },
        ],
      },
      names,
      runner,
    );
    await expect(inPlace.response(site('GET'), answer)).rejects.toMatchObject({ errorCode: 5002 });
    const madeUp = new ApiEvents(
      { response: [{ name: 'forge', run: (r) => void (r.answer = [{ '@metadata': { href: 'elsewhere' } }]) }] },
      names,
      runner,
    );
    await expect(madeUp.response(site('GET'), answer)).rejects.toMatchObject({ errorCode: 5002 });
    const fine = new ApiEvents(
      { response: [{ name: 'add', run: (r) => void (r.answer = (r.answer as object[]).map((o) => ({ ...o, extra: 1 }))) }] },
      names,
      runner,
    );
    expect(await fine.response(site('GET'), answer)).toEqual([{ ...answer[0], extra: 1 }]);
  });

  it('lists every problem of the definitions at once', () => {
    const definition = {
      request: [
        { name: 'a', resources: ['nothing', 'Recent'], methods: ['FETCH'], versions: ['v3'], timeoutMs: -1, run: () => undefined },
        { name: 'a', run: 'no' },
      ],
      response: [{ name: 'b', adds: ['balance', 'bad name'], run: () => undefined }],
      extra: [],
    } as unknown as ApiEventsDefinition;
    let error: ApiEventsError | undefined;
    try {
      new ApiEvents(definition, names, runner);
    } catch (e) {
      error = e as ApiEventsError;
    }
    expect(error?.problems).toEqual([
      'events: unknown field(s) extra (events take request and response)',
      'request event "a": unknown versions v3 (the project\'s API versions: v1, v2)',
      'request event "a": unknown methods FETCH (GET, POST, PUT, DELETE)',
      'request event "a": timeoutMs is a whole number of milliseconds from 1 to 600000',
      'request event "a": no resource named "nothing"',
      'request event "a": resource "Recent" is not in API version(s) v1',
      'request event "a" is defined twice',
      'request event "a": run must be a function',
      'response event "b": unknown adds bad name (field names: letters, digits and _)',
      'response event "b": adds balance, which a resource has as an attribute (writes would leave it out): name the added field otherwise',
    ]);
  });
});

describe('answer metadata', () => {
  it('freezes @metadata to its depths and finds every one', () => {
    const answer = freezeMetadata({ '@metadata': { href: 'a', more: { x: 1 } }, list: [{ '@metadata': { href: 'b' } }] });
    expect(Object.isFrozen(answer['@metadata'].more)).toBe(true);
    expect([...metadataOf(answer)]).toEqual(['{"href":"a","more":{"x":1}}', '{"href":"b"}']);
    expect(answerKeepsMetadata([answer.list[0]], metadataOf(answer))).toBe(true);
  });

  it('walks a deep body without running out of stack', () => {
    let deep: unknown = { status: 1 };
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(() => withoutFields(deep, new Set(['status']))).not.toThrow();
  });
});
