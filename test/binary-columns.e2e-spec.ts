import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { apiAs, type Api } from './support/api.js';
import { binaryProject } from './fixtures/binary/binary-project.js';
import { LacCli } from './support/lac-cli.js';
import { describeEachTarget, suiteApp, type TestApp } from './support/test-app.js';

type Row = Record<string, unknown> & { '@metadata': { href: string; checksum: string } };
interface Bytes {
  type: string;
  length: number;
  value?: string;
  url?: string;
}

/** Every byte value, the NUL and high bytes included. */
const ALL_BYTES = Buffer.from(Array.from({ length: 256 }, (_, i) => i));
/** A PNG's signature and a few bytes more: what a picture column holds. */
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from('not really a picture')]);
const b64 = (bytes: Buffer): string => `b64:${bytes.toString('base64')}`;
const inline = (bytes: Buffer): Bytes => ({ type: 'base64', length: bytes.length, value: bytes.toString('base64') });

/**
 * Issue 27 item 8: binary columns (blob, bytea, varbinary) served as LAC does. JSON carries
 * `{"type": "base64", "length": <bytes>, "value": <base64>}`, or past `inlinelimit` bytes
 * `{"type": "base64", "length", "url"}`, whose GET answers the bytes themselves with a content
 * type; writes take `"b64:<base64>"` (LAC's CLI `putdata` sends a file so) or the object read.
 */
describeEachTarget('binary columns', (target) => {
  let t: TestApp;
  let api: Api;
  suiteApp(
    target,
    () => ({ project: binaryProject(target.database) }),
    async (app) => {
      t = app;
      api = await apiAs(app, 'demo');
    },
  );
  let serial = 0;
  const fresh = (): string => `file-${++serial}`;
  const getRow = async (name: string, query = ''): Promise<Row> => {
    const rows = (await api.get(`/attachment/${name}${query}`).expect(200)).body as Row[];
    expect(rows).toHaveLength(1);
    return rows[0]!;
  };

  it('stores b64: bytes exactly, every byte value, and answers them inline with their length; the checksum is the stored row’s', async () => {
    const name = fresh();
    const res = await api.post('/attachment', { name, data: b64(ALL_BYTES), small: b64(Buffer.from([0, 1, 2])) }).expect(201);
    const [written] = res.body.txsummary as Row[];
    expect(written!.data).toEqual(inline(ALL_BYTES));
    const row = await getRow(name);
    expect(row.data).toEqual(inline(ALL_BYTES));
    expect(row.small).toEqual(inline(Buffer.from([0, 1, 2])));
    expect(row['@metadata'].checksum).toBe(written!['@metadata'].checksum);
    expect(row.label).toBeNull();
    // Empty bytes are not null.
    await api.post('/attachment', { name: fresh(), data: 'b64:' }).expect(201);
    expect((await getRow(`file-${serial}`)).data).toEqual({ type: 'base64', length: 0, value: '' });
  });

  it('changes the checksum with any byte; sends the object read back unchanged (GET → PUT round trip)', async () => {
    const name = fresh();
    await api.post('/attachment', { name, data: b64(ALL_BYTES) }).expect(201);
    const before = await getRow(name);
    const changed = Buffer.from(ALL_BYTES);
    changed[200] = 0;
    const put = await api
      .put(`/attachment/${name}`, { '@metadata': { checksum: before['@metadata'].checksum }, data: b64(changed) })
      .expect(200);
    const after = (put.body.txsummary as Row[])[0]!;
    expect(after['@metadata'].checksum).not.toBe(before['@metadata'].checksum);
    expect(after.data).toEqual(inline(changed));
    // The whole row as read, its bytes in the form GET gave them.
    const again = await getRow(name);
    const back = await api.put(`/attachment/${name}`, { ...again, label: 'as read' }).expect(200);
    expect((back.body.txsummary as Row[])[0]!.data).toEqual(inline(changed));
  });

  it('links bytes past inlinelimit; the link answers the raw bytes with their content type', async () => {
    const name = fresh();
    const big = Buffer.concat([PNG, Buffer.alloc(3000, 7)]);
    await api.post('/attachment', { name, data: b64(big), small: b64(Buffer.from('tiny')) }).expect(201);
    const row = await getRow(name);
    // The default inlinelimit is 2000 bytes.
    expect(row.data).toEqual({ type: 'base64', length: big.length, url: `${row['@metadata'].href}/data` });
    expect(row.small).toEqual(inline(Buffer.from('tiny')));
    const small = await getRow(name, '?inlinelimit=3');
    expect(small.small).toEqual({ type: 'base64', length: 4, url: `${row['@metadata'].href}/small` });
    expect((await getRow(name, '?inlinelimit=5000')).data).toEqual(inline(big));
    const raw = await api
      .getUrl((row.data as Bytes).url!)
      .buffer(true)
      .parse((res, done) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => done(null, Buffer.concat(chunks)));
      })
      .expect(200);
    expect(raw.headers['content-type']).toBe('image/png');
    expect(raw.headers['x-content-type-options']).toBe('nosniff');
    expect(Buffer.compare(raw.body as Buffer, big)).toBe(0);
    const other = await api
      .get(`/attachment/${name}/small`)
      .buffer(true)
      .parse((res, done) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => done(null, Buffer.concat(chunks)));
      })
      .expect(200);
    expect(other.headers['content-type']).toBe('application/octet-stream');
    expect((other.body as Buffer).toString()).toBe('tiny');
    // The collection links the same way.
    const listed = ((await api.get(`/attachment?sysfilter=${encodeURIComponent(`equal(name:'${name}')`)}`).expect(200)).body as Row[])[0]!;
    expect((listed.data as Bytes).url).toBe(`${row['@metadata'].href}/data`);
  });

  it('refuses bytes without the b64: prefix, bad base64, a link sent back, and a wrong length (400 / 4000 naming the column)', async () => {
    const name = fresh();
    await api.post('/attachment', { name }).expect(201);
    const { checksum } = (await getRow(name))['@metadata'];
    for (const [data, text] of [
      [ALL_BYTES.toString('base64'), 'must be bytes in base64, written "b64:<base64>"'],
      ['b64:not base64!', 'is not standard base64'],
      ['b64:QUJD\nREVG', 'is not standard base64'],
      [42, 'must be bytes in base64'],
      [[1, 2], 'must be bytes in base64'],
      [{ type: 'base64', length: 3, url: 'http://x/attachment/a/data' }, 'holds a link to its value'],
      [{ type: 'base64', length: 4, value: 'QUJD' }, 'says it holds 4 bytes, but its value holds 3'],
      [{ type: 'hex', value: '00' }, 'must be bytes in base64'],
    ] as const) {
      const res = await api.put(`/attachment/${name}`, { '@metadata': { checksum }, data }).expect(400);
      expect(res.body.errorCode).toBe(4000);
      expect(res.body.errorMessage).toContain('Column "data"');
      expect(res.body.errorMessage).toContain(text);
    }
  });

  it('holds the decoded size to the column’s where its type has one (MySQL varbinary(16))', async () => {
    const res = await api.post('/attachment', { name: fresh(), small: b64(Buffer.alloc(17)) });
    if (target.database === 'mysql') {
      expect(res.status).toBe(400);
      expect(res.body.errorMessage).toBe('Column "small" is longer than 16 bytes (17).');
      await api.post('/attachment', { name: fresh(), small: b64(Buffer.alloc(16, 1)) }).expect(201);
    } else {
      expect(res.status).toBe(201);
    }
  });

  it('refuses binary columns in filters and sorts (400 / 4000)', async () => {
    for (const query of [
      `sysfilter=${encodeURIComponent("equal(data:'x')")}`,
      'filter=data%20is%20null',
      'sysorder=(data:asc)',
      'order=small',
    ]) {
      const res = await api.get(`/attachment?${query}`).expect(400);
      expect(res.body.errorMessage).toContain('holds binary values, which filters and sorts cannot compare');
    }
  });

  it("round-trips a small file through the LAC CLI's putdata (it sends b64:…)", async () => {
    const name = fresh();
    await api.post('/attachment', { name, label: 'for putdata' }).expect(201);
    const server = t.app.getHttpServer() as Server;
    if (!server.listening) await t.app.listen(0, '127.0.0.1');
    const { port } = server.address() as AddressInfo;
    const cli = new LacCli();
    try {
      await cli.login(`http://127.0.0.1:${port}${t.base}`);
      const file = join(cli.home, 'picture.png');
      writeFileSync(file, PNG);
      const run = await cli.run(['putdata', 'attachment', '-k', name, '-c', 'data', '-f', file]);
      expect(run.stdout).not.toContain('Error');
      expect(run.stdout).toMatch(/# objects touched: 1/);
      expect((await getRow(name)).data).toEqual(inline(PNG));
      // And back out through the CLI's get: the same bytes.
      const printed = (await cli.json(['get', `attachment/${name}`])) as Row[];
      expect(Buffer.from((printed[0]!.data as Bytes).value!, 'base64').equals(PNG)).toBe(true);
      expect(readFileSync(file).equals(PNG)).toBe(true);
    } finally {
      cli.cleanup();
    }
  });
});
