import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Entity, EntityRecord, RecordPage } from '@common/schemas/entities';
import type { FieldValue } from '@common/schemas/fieldValues';
import { queryRows } from '@server/db/client';
import { tableOf } from '@server/modules/records/recordTable';
import { prng } from '../../../../bench/measure';
import { bearer, login } from '../../helpers/auth';
import { type TestApp, startTestApp } from '../../helpers/testApp';
import { testDbKinds } from '../../helpers/testDatabase';

const TEXTS = ['apple', 'Apple', 'Zebra', 'élan', 'Ünïcödé', 'a%b', 'a_b', 'back\\slash', '', 'ab'];
const FIELDS = [
  { name: 'name', type: 'text' },
  { name: 'note', type: 'longText' },
  { name: 'qty', type: 'integer' },
  { name: 'weight', type: 'number' },
  { name: 'ok', type: 'boolean' },
  { name: 'day', type: 'date' },
  { name: 'at', type: 'datetime' },
  { name: 'kind', type: 'select', options: ['a', 'b', 'c'] },
  { name: 'mail', type: 'email' },
];
type Row = EntityRecord['fields'];

describe.each(testDbKinds)('records pages on %s', (kind) => {
  let t: TestApp;
  let admin: Record<string, string>;
  let probe: Entity;
  let site: Entity;
  let all: EntityRecord[];
  const sites: Record<string, string> = {};
  /** Every text value's rank in the database's own order, and its lower(): the reference's. */
  let rank: Map<string, number>;
  let lower: Map<string, string>;

  const get = (url: string) => t.app.inject({ method: 'GET', url, headers: admin });
  const post = (url: string, payload: object) =>
    t.app.inject({ method: 'POST', url, headers: admin, payload });

  beforeAll(async () => {
    t = await startTestApp(kind);
    admin = bearer((await login(t.app, 'admin')).jwt);
    const suffix = randomUUID().slice(0, 8);
    site = (
      await post('/api/entities', {
        name: `Site_${suffix}`,
        fields: [{ name: 'code' }, { name: 'label' }],
        displayField: 'label',
      })
    ).json();
    for (const label of ['North', 'South']) {
      sites[label] = (
        await post(`/api/entity-records/${site.name}`, { fields: { code: label[0], label } })
      ).json()._id;
    }
    probe = (
      await post('/api/entities', {
        name: `Probe_${suffix}`,
        fields: [...FIELDS, { name: 'site', type: 'relation', target: site.name }],
      })
    ).json();
    const random = prng(7);
    const pick = <T>(list: T[]) => list[Math.floor(random() * list.length)]!;
    const maybe = <T>(value: T) => (random() < 0.2 ? null : value);
    for (let i = 0; i < 90; i++) {
      const fields = {
        name: maybe(pick(TEXTS)),
        note: maybe(`${pick(TEXTS)} ${pick(TEXTS)}`),
        qty: maybe(Math.floor(random() * 7) - 3),
        weight: maybe(Math.round(random() * 400) / 8 - 10),
        ok: maybe(random() < 0.5),
        day: maybe(`2026-0${1 + Math.floor(random() * 3)}-1${Math.floor(random() * 4)}`),
        at: maybe(`2026-11-2${Math.floor(random() * 3)}T1${Math.floor(random() * 3)}:00:00Z`),
        kind: maybe(pick(['a', 'b', 'c'])),
        mail: maybe(pick(['x@example.com', 'Y@Example.com', 'Z@Elan.fr'])),
        site: maybe(pick(Object.values(sites))),
      };
      const res = await post(`/api/entity-records/${probe.name}`, { fields });
      expect(res.statusCode).toBe(201);
    }
    all = (await get(`/api/entity-records/${probe.name}`)).json();
    const texts = [...new Set(all.flatMap((r) => Object.values(r.fields)).map(String))];
    const ranked = await queryRows<{ v: string; l: string; r: number }>(
      t.database.db,
      sql`select v, lower(v) as l, (rank() over (order by v))::int as r from jsonb_array_elements_text(${JSON.stringify(texts)}::jsonb) v`,
    );
    rank = new Map(ranked.map((row) => [row.v, row.r]));
    lower = new Map(ranked.map((row) => [row.v, row.l]));
  });
  afterAll(() => t.close());

  const typeOf = (name: string) => FIELDS.find((f) => f.name === name)?.type ?? 'relation';
  const isText = (name: string) => ['text', 'longText', 'select', 'email'].includes(typeOf(name));
  /** The database's order of two values of a field (never null). */
  const compare = (name: string, a: FieldValue, b: FieldValue) => {
    if (isText(name)) return rank.get(a as string)! - rank.get(b as string)!;
    if (typeof a === 'number') return a - (b as number);
    if (typeof a === 'boolean') return Number(a) - Number(b);
    return a < b ? -1 : a > b ? 1 : 0;
  };
  const contains = (value: FieldValue | undefined, word: string) =>
    typeof value === 'string' && lower.get(value)!.includes(lower.get(word) ?? word.toLowerCase());
  const empty = (name: string, value: FieldValue | undefined) =>
    value === undefined || (isText(name) && (value as string).trim() === '');

  /** The reference: the plain array, filtered and sorted in JavaScript by the rules. */
  function expected(
    filter: (fields: Row) => boolean,
    sort: [string, 'asc' | 'desc'] | undefined,
    page: number,
    perPage: number,
  ) {
    const rows = all.filter((r) => filter(r.fields));
    if (sort) {
      const [name, direction] = sort;
      const sign = direction === 'desc' ? -1 : 1;
      rows.sort((a, b) => {
        const [x, y] = [a.fields[name], b.fields[name]];
        // ASC puts empty values last, DESC first (PostgreSQL's NULLS LAST / FIRST).
        const byValue =
          x === undefined || y === undefined
            ? (x === undefined ? 1 : 0) - (y === undefined ? 1 : 0)
            : compare(name, x, y);
        return sign * (byValue || (a._id < b._id ? -1 : 1));
      });
    }
    return {
      ids: rows.slice((page - 1) * perPage, page * perPage).map((r) => r._id),
      total: rows.length,
    };
  }

  const pageOf = async (params: Record<string, string>): Promise<RecordPage> => {
    const res = await get(`/api/entity-records/${probe.name}?${new URLSearchParams(params)}`);
    expect(res.statusCode).toBe(200);
    return res.json();
  };

  it.each(
    ['name', 'note', 'qty', 'weight', 'ok', 'day', 'at', 'kind', 'mail', 'site'].flatMap((name) =>
      (['asc', 'desc'] as const).map((direction) => [name, direction] as const),
    ),
  )('sorts by %s %s as a plain scan does, empty values at the end', async (name, direction) => {
    for (const page of [1, 3]) {
      const answer = await pageOf({ sort: `${name}:${direction}`, page: `${page}`, perPage: '11' });
      const reference = expected(() => true, [name, direction], page, 11);
      expect(answer.records.map((r) => r._id)).toEqual(reference.ids);
      expect(answer).toMatchObject({ total: reference.total, totalIsEstimate: false });
    }
  });

  const filters: [string, Record<string, string>, (f: Row) => boolean][] = [
    ['text eq', { 'filter[name][eq]': 'apple' }, (f) => f.name === 'apple'],
    ['text ne', { 'filter[name][ne]': 'apple' }, (f) => f.name !== 'apple'],
    [
      'text contains a LIKE wildcard',
      { 'filter[name][contains]': '%' },
      (f) => contains(f.name, '%'),
    ],
    ['text contains _', { 'filter[note][contains]': 'a_' }, (f) => contains(f.note, 'a_')],
    [
      'text contains non-ASCII',
      { 'filter[name][contains]': 'ÜNÏ' },
      (f) => contains(f.name, 'ÜNÏ'),
    ],
    ['text contains \\', { 'filter[name][contains]': '\\' }, (f) => contains(f.name, '\\')],
    ['text empty', { 'filter[name][empty]': 'true' }, (f) => empty('name', f.name)],
    ['text not empty', { 'filter[name][empty]': 'false' }, (f) => !empty('name', f.name)],
    ['a blank text empty', { 'filter[note][empty]': 'true' }, (f) => empty('note', f.note)],
    [
      'text in',
      { 'filter[name][in]': 'Zebra,ab' },
      (f) => ['Zebra', 'ab'].includes(f.name as string),
    ],
    ['integer gt', { 'filter[qty][gt]': '0' }, (f) => (f.qty as number) > 0],
    ['integer lte', { 'filter[qty][lte]': '-1' }, (f) => (f.qty as number) <= -1],
    ['integer in', { 'filter[qty][in]': '-3,2' }, (f) => [-3, 2].includes(f.qty as number)],
    ['number gte', { 'filter[weight][gte]': '20.5' }, (f) => (f.weight as number) >= 20.5],
    ['number lt', { 'filter[weight][lt]': '0' }, (f) => (f.weight as number) < 0],
    ['boolean eq', { 'filter[ok][eq]': 'true' }, (f) => f.ok === true],
    ['boolean ne', { 'filter[ok][ne]': 'true' }, (f) => f.ok !== true],
    ['boolean empty', { 'filter[ok][empty]': 'true' }, (f) => f.ok === undefined],
    [
      'date range',
      { 'filter[day][gte]': '2026-02-01', 'filter[day][lt]': '2026-03-01' },
      (f) => (f.day as string) >= '2026-02-01' && (f.day as string) < '2026-03-01',
    ],
    [
      'datetime gt with an offset',
      { 'filter[at][gt]': '2026-11-21T12:30:00+01:00' },
      (f) => (f.at as string) > '2026-11-21T11:30:00.000Z',
    ],
    ['select eq', { 'filter[kind][eq]': 'b' }, (f) => f.kind === 'b'],
    ['email contains', { 'filter[mail][contains]': 'EXAMPLE' }, (f) => contains(f.mail, 'EXAMPLE')],
    ['one word in any text field', { q: 'ÉLAN' }, (f) => textHas(f, 'ÉLAN')],
    [
      'two words, each in some text field',
      { q: 'apple  zeb' },
      (f) => textHas(f, 'apple') && textHas(f, 'zeb'),
    ],
    ['a word nowhere', { q: 'nothing-has-this' }, () => false],
    [
      'a word and a filter',
      { q: 'a', 'filter[kind][in]': 'a,c' },
      (f) => textHas(f, 'a') && ['a', 'c'].includes(f.kind as string),
    ],
  ];
  function textHas(fields: Row, word: string) {
    return ['name', 'note', 'kind', 'mail'].some((name) => contains(fields[name], word));
  }

  it.each(filters)('filters by %s as a plain scan does', async (_what, params, filter) => {
    for (const [sort, page] of [
      [undefined, 1],
      [['weight', 'desc'], 2],
    ] as const) {
      const answer = await pageOf({
        ...params,
        ...(sort ? { sort: sort.join(':') } : {}),
        page: `${page}`,
        perPage: '5',
      });
      const reference = expected(filter, sort as [string, 'desc'] | undefined, page, 5);
      expect(answer.records.map((r) => r._id)).toEqual(reference.ids);
      expect(answer.total).toBe(reference.total);
    }
  });

  it("filters a relation by its record's id, and shows each by its entity's display field", async () => {
    const answer = await pageOf({ 'filter[site][eq]': sites.North!, perPage: '100' });
    const reference = expected((f) => f.site === sites.North, undefined, 1, 100);
    expect(answer.records.map((r) => r._id)).toEqual(reference.ids);
    expect(answer.records.map((r) => r._display)).toEqual(
      reference.ids.map(() => ({ site: 'North' })),
    );
    const noSite = await pageOf({ 'filter[site][empty]': 'true', perPage: '1' });
    expect(noSite.records[0]!._display).toEqual({});
  });

  it.each([
    [{ sort: 'colour:asc' }, 'querystring.sort'],
    [{ sort: 'qty:up' }, 'querystring.sort'],
    [{ 'filter[colour][eq]': 'x' }, 'querystring.filter[colour][eq]'],
    [{ 'filter[qty][contains]': '1' }, 'querystring.filter[qty][contains]'],
    [{ 'filter[qty][eq]': 'ten' }, 'querystring.filter[qty][eq]'],
    [{ 'filter[day][gt]': '2026-13-01' }, 'querystring.filter[day][gt]'],
    [{ 'filter[ok][in]': 'true' }, 'querystring.filter[ok][in]'],
    [{ 'filter[kind][eq]': 'z' }, 'querystring.filter[kind][eq]'],
    [{ 'filter[name][empty]': 'yes' }, 'querystring.filter[name][empty]'],
    [{ colour: 'red' }, 'querystring.colour'],
    [{ perPage: '101' }, 'querystring.perPage'],
    [{ page: '1000001' }, 'querystring.page'],
  ])('answers 400 for %j, naming %s', async (params, field) => {
    const res = await get(`/api/entity-records/${probe.name}?${new URLSearchParams(params)}`);
    expect(res.statusCode).toBe(400);
    expect(res.json().fields.map((f: { field: string }) => f.field)).toContain(field);
  });

  it('answers the plain array in batches, every record once, oldest first', async () => {
    const bulk = (
      await post('/api/entities', {
        name: `Bulk_${randomUUID().slice(0, 8)}`,
        fields: [{ name: 'n' }],
      })
    ).json() as Entity;
    // Past two of the list's batches of 1,000, written straight to the table.
    await t.database.db.execute(
      sql.raw(`insert into "${tableOf(bulk._id)}" (f_n, created_at)
        select g::text, now() + g * interval '1 ms' from generate_series(1, 2345) g`),
    );
    const res = await get(`/api/entity-records/${bulk.name}`);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    const records: EntityRecord[] = res.json();
    expect(records.map((r) => r.fields.n)).toEqual(
      Array.from({ length: 2345 }, (_, i) => String(i + 1)),
    );
    expect(new Set(records.map((r) => r._id)).size).toBe(2345);
    const emptyOne = (
      await post('/api/entities', {
        name: `None_${randomUUID().slice(0, 8)}`,
        fields: [{ name: 'n' }],
      })
    ).json() as Entity;
    expect((await get(`/api/entity-records/${emptyOne.name}`)).json()).toEqual([]);
    expect((await get('/api/entity-records/NoSuchEntity')).statusCode).toBe(404);
    expect((await get('/api/entity-records/NoSuchEntity?page=1')).statusCode).toBe(404);
  });

  it('counts totals exactly up to 10,000, then estimates them within 5 % (flagged) or counts when a sample cannot tell', async () => {
    const big = (
      await post('/api/entities', {
        name: `Big_${randomUUID().slice(0, 8)}`,
        fields: [{ name: 'n', type: 'integer' }],
      })
    ).json() as Entity;
    const table = `"${tableOf(big._id)}"`;
    await t.database.db.execute(
      sql.raw(`insert into ${table} (f_n) select g from generate_series(1, 150000) g`),
    );
    const totalOf = async (params: Record<string, string>) => {
      const res = await get(`/api/entity-records/${big.name}?${new URLSearchParams(params)}`);
      const { total, totalIsEstimate } = res.json() as RecordPage;
      return { total, totalIsEstimate };
    };
    // No statistics yet: counted.
    const everyOne = { 'filter[n][gt]': '0' };
    expect(await totalOf(everyOne)).toEqual({ total: 150_000, totalIsEstimate: false });
    // Kept a while: 500 records later, the same total, now flagged as an estimate.
    await t.database.db.execute(
      sql.raw(`insert into ${table} (f_n) select g from generate_series(150001, 150500) g`),
    );
    expect(await totalOf(everyOne)).toEqual({ total: 150_000, totalIsEstimate: true });
    await t.database.db.execute(sql.raw(`delete from ${table} where f_n > 150000`));
    await t.database.db.execute(sql.raw(`vacuum analyze ${table}`));
    expect(await totalOf({ page: '1' })).toEqual({ total: 150_000, totalIsEstimate: true });
    const half = await totalOf({ 'filter[n][lte]': '75000' });
    expect(half.totalIsEstimate).toBe(true);
    expect(Math.abs(half.total - 75_000) / 75_000).toBeLessThan(0.05);
    // The same filter on another page or sort: the same total.
    expect(await totalOf({ 'filter[n][lte]': '75000', page: '3', sort: 'n:desc' })).toEqual(half);
    // 11,000 of 150,000: a sample of 20,000 holds ~1,470 (fewer than 1,600), so they are counted.
    expect(await totalOf({ 'filter[n][gt]': '139000' })).toEqual({
      total: 11_000,
      totalIsEstimate: false,
    });
    expect(await totalOf({ 'filter[n][gt]': '140000' })).toEqual({
      total: 10_000,
      totalIsEstimate: false,
    });
  });
});
