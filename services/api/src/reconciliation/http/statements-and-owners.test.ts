import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { narrowDb } from '@filiere/platform';
import { useTestDatabase } from '@filiere/platform/testing';
import {
  catalogueDecoder,
  catchUp,
  pgPushSource,
  PUSH_PG_CHANNEL,
  type PushMessage,
} from '@filiere/projections';
import type { Database } from '../../database.js';
import { product } from '../../modules.js';
import { buildTestApp } from '../../test-app.js';
import { walletUser, withKey, type TestUser } from '../../wallet/http/commands/test-support.js';

const decode = catalogueDecoder(product.catalogue);

/** Two statements of the supply account in one MT940 file, as a Benin bank exports them. */
const mt940 = [
  '{1:F01BOABBJBJAXXX0000000000}{2:O9400700261205BOABBJBJAXXX00000000002612050700N}{4:',
  ':20:BOA2612040001',
  ':25:BJ0610100100000000000001',
  ':28C:117/1',
  ':60F:C261203XOF500000,',
  ':61:2612041204C75000,NTRFNONREF//BOA26120400017',
  ':86:VIREMENT RECU APP-MT1A COOPERATIVE ALLADA',
  ':61:2612041204D20000,NTRFNONREF//BOA26120400018',
  ':86:VIREMENT EMIS',
  ':62F:C261204XOF555000,',
  '-}',
  '{1:F01BOABBJBJAXXX0000000000}{2:O9400700261206BOABBJBJAXXX00000000002612060700N}{4:',
  ':20:BOA2612050001',
  ':25:BJ0610100100000000000001',
  ':28C:118/1',
  ':60F:C261204XOF555000,',
  ':61:2612051205C40000,NTRFNONREF//BOA26120500003',
  ':86:VERSEMENT APP-MT2B',
  ':62F:C261205XOF595000,',
  '-}',
].join('\r\n');

describe('reconciliation HTTP: MT940 statements and exception owners (real PostgreSQL)', () => {
  const testDb = useTestDatabase<Database>();
  const db = () => narrowDb<Database>()(testDb.db);
  let app: FastifyInstance;
  let superAdmin: TestUser;
  let admin: TestUser;
  let auditor: TestUser;

  const post = (who: TestUser, url: string, payload: object) =>
    app.inject({
      method: 'POST',
      url: `/api/reconciliation${url}`,
      headers: withKey(who),
      payload,
    });
  const get = (who: TestUser, url: string) =>
    app.inject({ method: 'GET', url: `/api/reconciliation${url}`, headers: who.headers });
  const eventCount = async () =>
    Number(
      (await sql<{ n: string }>`select count(*) as n from events`.execute(testDb.db)).rows[0]!.n,
    );
  const project = async () => {
    for (const projector of product.projectors) await catchUp(testDb.db, projector, { decode });
  };

  beforeAll(async () => {
    app = await buildTestApp(db());
    superAdmin = await walletUser(app, db(), 'ROLE_SUPER_ADMIN');
    admin = await walletUser(app, db(), 'ROLE_ADMIN');
    auditor = await walletUser(app, db(), 'ROLE_ACCOUNTING');
  });
  afterAll(async () => app?.close());

  it('imports an MT940 file, recognised by its content; imported twice, it changes nothing', async () => {
    const first = await post(admin, '/statements', { content: mt940 });
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({
      recorded: 3,
      known: 0,
      conflicts: [],
      days: ['2026-12-04', '2026-12-05'],
    });
    const before = await eventCount();
    const again = await post(admin, '/statements', { format: 'MT940', content: mt940 });
    expect(again.json()).toMatchObject({ recorded: 0, known: 3, conflicts: [] });
    expect(await eventCount()).toBe(before);
    await project();
    const lines = await db()
      .selectFrom('reconciliation_lines')
      .select(['line_key', 'reference', 'direction', 'amount'])
      .where('source', '=', 'BANK')
      .orderBy('line_key')
      .execute();
    expect(lines.map((l) => [l.line_key, l.reference, l.direction, Number(l.amount)])).toEqual([
      ['BANK:BOA26120400017', 'APP-MT1A', 'IN', 75_000],
      ['BANK:BOA26120400018', null, 'OUT', 20_000],
      ['BANK:BOA26120500003', 'APP-MT2B', 'IN', 40_000],
    ]);
  });

  it('refuses an MT940 file that does not add up, recording nothing', async () => {
    const before = await eventCount();
    const res = await post(admin, '/statements', {
      content: mt940.replace(':62F:C261205XOF595000,', ':62F:C261205XOF600000,'),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(
      'Le relevé MT940 est incohérent : ses écritures ne donnent pas son solde de clôture',
    );
    expect(await eventCount()).toBe(before);
  });

  it('refuses a cut MT940 file and a file of no known format, with a French message', async () => {
    const before = await eventCount();
    const cut = await post(admin, '/statements', {
      content: mt940.slice(0, mt940.indexOf(':62F:C261204')),
    });
    expect(cut.statusCode).toBe(400);
    expect(cut.json().message).toBe('Relevé MT940 illisible');
    const unknown = await post(admin, '/statements', { content: 'Bonjour,\nvoici le relevé.' });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().message).toBe(
      'Format de relevé non reconnu : importez un MT940, un CAMT.053, ou un CSV avec le code de sa banque',
    );
    expect(await eventCount()).toBe(before);
  });

  it('lets the auditor import nothing', async () => {
    expect((await post(auditor, '/statements', { content: mt940 })).statusCode).toBe(403);
  });

  it('gives an exception an owner and another, as events of its stream, filtered by owner', async () => {
    // The 4 December lines match nothing: once the 5th is closed they are exceptions.
    expect((await post(admin, '/run', { source: 'BANK', day: '2026-12-05' })).statusCode).toBe(200);
    await project();
    const all = (await get(auditor, '/exceptions?status=OPEN')).json() as {
      data: { id: string; reference: string | null; ownerUserId: string | null }[];
    };
    expect(all.data).toHaveLength(2);
    expect(all.data.every((e) => e.ownerUserId === null)).toBe(true);
    const first = all.data[0]!;
    const second = all.data[1]!;

    const owners = await get(auditor, '/owners');
    expect(owners.statusCode).toBe(200);
    const ownerIds = (owners.json() as { id: string }[]).map((o) => o.id);
    expect(ownerIds).toEqual(expect.arrayContaining([superAdmin.id, admin.id]));
    expect(ownerIds).not.toContain(auditor.id);

    // The auditor assigns nothing; nobody but finance can own an exception.
    expect(
      (await post(auditor, `/exceptions/${first.id}/assign`, { ownerUserId: auditor.id }))
        .statusCode,
    ).toBe(403);
    const toAuditor = await post(admin, `/exceptions/${first.id}/assign`, {
      ownerUserId: auditor.id,
    });
    expect(toAuditor.statusCode).toBe(400);
    expect(toAuditor.json().message).toBe('Le responsable doit être un administrateur');

    // The admin takes it; the super admin then gives it to himself.
    expect(
      (await post(admin, `/exceptions/${first.id}/assign`, { ownerUserId: admin.id })).statusCode,
    ).toBe(200);
    await project();
    const mine = (await get(admin, '/exceptions?owner=me')).json() as {
      data: { id: string; ownerName: string | null }[];
    };
    expect(mine.data.map((e) => e.id)).toEqual([first.id]);
    expect(mine.data[0]!.ownerName).toEqual(expect.any(String));
    const before = await eventCount();
    expect(
      (await post(admin, `/exceptions/${first.id}/assign`, { ownerUserId: admin.id })).statusCode,
    ).toBe(200);
    expect(await eventCount()).toBe(before);
    expect(
      (await post(superAdmin, `/exceptions/${first.id}/assign`, { ownerUserId: superAdmin.id }))
        .statusCode,
    ).toBe(200);
    await project();
    const ids = async (who: TestUser, query: string) =>
      ((await get(who, `/exceptions?${query}`)).json() as { data: { id: string }[] }).data.map(
        (e) => e.id,
      );
    expect(await ids(admin, 'owner=me')).toEqual([]);
    expect(await ids(superAdmin, 'owner=me')).toEqual([first.id]);
    expect(await ids(auditor, `owner=${superAdmin.id}`)).toEqual([first.id]);
    expect(await ids(auditor, 'owner=none')).toEqual([second.id]);

    // The auditor sees the exception but resolves nothing; finance closes it with a reason.
    for (const [action, payload] of [
      ['close', { reason: 'Virement interne' }],
      ['link', { counterpartKey: 'supply:APP-MT1A' }],
      ['propose', { action: 'CREDIT_SUPPLY', target: 'APP-MT1A' }],
    ] as const) {
      expect((await post(auditor, `/exceptions/${second.id}/${action}`, payload)).statusCode).toBe(
        403,
      );
    }
    expect(
      (await post(admin, `/exceptions/${second.id}/close`, { reason: 'Virement interne' }))
        .statusCode,
    ).toBe(200);
    await project();
    expect(await ids(auditor, 'status=CLOSED')).toEqual([second.id]);
    expect(await ids(auditor, 'owner=none&status=OPEN')).toEqual([]);

    const detail = await get(auditor, `/exceptions/${first.id}`);
    const names = (owners.json() as { id: string; name: string }[]).reduce<Record<string, string>>(
      (acc, o) => ({ ...acc, [o.id]: o.name }),
      {},
    );
    expect(detail.json()).toMatchObject({
      ownerUserId: superAdmin.id,
      ownerName: names[superAdmin.id],
      history: [
        { type: 'ExceptionOpened', ownerName: null },
        {
          type: 'ExceptionAssigned',
          userId: admin.id,
          userName: names[admin.id],
          ownerName: names[admin.id],
        },
        {
          type: 'ExceptionAssigned',
          userId: superAdmin.id,
          userName: names[superAdmin.id],
          ownerName: names[superAdmin.id],
        },
      ],
    });
  });

  it('keeps a CSV mapping per bank: finance saves it, its French errors on their fields, the list searched and paged', async () => {
    const put = (who: TestUser, code: string, payload: object) =>
      app.inject({
        method: 'PUT',
        url: `/api/reconciliation/bank-mappings/${code}`,
        headers: withKey(who),
        payload,
      });
    const boa = {
      delimiter: ';',
      date: 'Date opération',
      dateFormat: 'DD/MM/YYYY',
      amount: 'Montant',
      reference: 'Référence',
      label: 'Libellé',
    };
    expect((await put(auditor, 'BOA', boa)).statusCode).toBe(403);
    const glued = await put(admin, 'BOA', { ...boa, date: 'Date;Heure', amount: ' ' });
    expect(glued.statusCode).toBe(400);
    expect(glued.json().fields).toMatchObject({
      date: 'Le nom de la colonne ne peut pas contenir le séparateur (le point-virgule)',
      amount: 'Ce champ est obligatoire',
    });
    const badCode = await put(admin, 'boa%20csv', boa);
    expect(badCode.statusCode).toBe(400);
    expect(badCode.json().fields).toEqual({ bankCode: 'Code de banque invalide' });
    expect((await put(admin, 'BOA', boa)).statusCode).toBe(200);
    expect((await put(admin, 'ECOBANK', { ...boa, delimiter: ',' })).statusCode).toBe(200);
    expect((await put(superAdmin, 'ORABANK', { ...boa, dateFormat: 'ISO' })).statusCode).toBe(200);

    const list = await get(auditor, '/bank-mappings?limit=2');
    expect(list.statusCode).toBe(200);
    expect(list.json().count).toBe(3);
    expect(list.json().data.map((m: { bankCode: string }) => m.bankCode)).toEqual([
      'BOA',
      'ECOBANK',
    ]);
    expect((await get(auditor, '/bank-mappings?limit=2&page=2')).json().data).toEqual([
      { bankCode: 'ORABANK', mapping: { ...boa, dateFormat: 'ISO' } },
    ]);
    expect((await get(admin, '/bank-mappings?q=bank')).json()).toMatchObject({
      count: 2,
      data: [{ bankCode: 'ECOBANK' }, { bankCode: 'ORABANK' }],
    });

    const csv = [
      'Date opération;Montant;Référence;Libellé',
      '06/12/2026;15 000;BOA-CSV-1;VERSEMENT APP-CSV1',
      '06/12/2026;-5 000;BOA-CSV-2;FRAIS',
    ].join('\n');
    const imported = await post(admin, '/statements', { content: csv, bankCode: 'BOA' });
    expect(imported.json()).toMatchObject({ recorded: 2, known: 0, days: ['2026-12-06'] });
  });

  it('pushes a saved mapping to every reader, the auditor too, for their lists to refresh', async () => {
    const source = pgPushSource(testDb.url);
    const received: PushMessage[] = [];
    const stop = source.subscribe((msg) => received.push(msg));
    try {
      // Wait until LISTEN is in place: probe until a probe comes back.
      for (let i = 0; i < 200 && !received.some((m) => m.type === 'probe'); i++) {
        await sql`select pg_notify(${PUSH_PG_CHANNEL}, ${JSON.stringify({ type: 'probe', userIds: [] })})`.execute(
          testDb.db,
        );
        await new Promise((r) => setTimeout(r, 25));
      }
      const saved = await app.inject({
        method: 'PUT',
        url: '/api/reconciliation/bank-mappings/UBA',
        headers: withKey(admin),
        payload: {
          delimiter: ',',
          date: 'Date',
          dateFormat: 'ISO',
          amount: 'Amount',
          reference: 'Ref',
          label: 'Narration',
        },
      });
      expect(saved.statusCode).toBe(200);
      const changed = () => received.find((m) => m.type === 'reconciliation.changed');
      for (let i = 0; i < 200 && !changed(); i++) await new Promise((r) => setTimeout(r, 25));
      expect(changed()?.userIds).toEqual(
        expect.arrayContaining([superAdmin.id, admin.id, auditor.id]),
      );
    } finally {
      stop();
      await source.close();
    }
  });
});
