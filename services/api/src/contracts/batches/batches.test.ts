import ExcelJS from 'exceljs';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalogueDecoder, catchUp, type PushMessage } from '@filiere/projections';
import { createLogger, parseConfig } from '@filiere/platform';
import { nextBeninYear, useTestDatabase } from '@filiere/platform/testing';
import { buildApp } from '../../app.js';
import type { Database } from '../../database.js';
import { identityDemoStep } from '../../identity/demo/identity.js';
import { findDemoUser, userLoader } from '../../identity/index.js';
import { bearer, seedCluster, seedUser } from '../../identity/test-support.js';
import type { SignedInUser } from '../../kernel/actor.js';
import { runDemoSteps } from '../../kernel/index.js';
import { product } from '../../modules.js';
import { walletDemoStep } from '../../wallet/demo/wallet.js';
import { evolveWallet, initialWalletState, type WalletEvent } from '../../wallet/index.js';
import { AcceptanceCodes } from '../commands/acceptance-code.js';
import { contractsProjector } from '../read-model/index.js';
import { contractParentsProjector } from './read-model/projector.js';

/**
 * 'Create many' through the routes, on a real PostgreSQL and the app's command pipeline:
 * a file is checked into a preview (nothing created), 'Valider' makes the parent and every
 * sub-contract with its hold in one append or nothing.
 */
describe('contract batches (LIVRAISON_PARENT)', () => {
  const testDb = useTestDatabase<Database>();
  let app: FastifyInstance;
  let db: Kysely<Database>;
  let aggregator: SignedInUser;
  let otherAggregator: SignedInUser;
  let grower: SignedInUser;
  const growers: { id: string; reference: string; phone: string; plot: string; plotId: string }[] =
    [];

  const walletOf = async (walletId: string) =>
    (await app.eventStore.readStream(`wallet-${walletId}`))
      .map((e) => ({ type: e.type, data: e.data }) as unknown as WalletEvent)
      .reduce(evolveWallet, initialWalletState());
  const eventCount = async () =>
    Number(
      (
        await db
          .selectFrom('events')
          .select((eb) => eb.fn.countAll<string>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  /** What the parents' projection published after its commits. */
  const parentPushes: PushMessage[] = [];
  const project = async () => {
    const decode = catalogueDecoder(product.catalogue);
    await catchUp(db, contractsProjector, { decode });
    await catchUp(db, contractParentsProjector, {
      decode,
      publish: async (messages) => void parentPushes.push(...messages),
    });
  };

  function multipart(fileName: string, content: Buffer, type = 'application/octet-stream') {
    const boundary = `----filiere${Date.now()}`;
    const payload = Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${fileName}"\r\nContent-Type: ${type}\r\n\r\n`,
      ),
      content,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
  }
  const upload = (who: SignedInUser, fileName: string, content: Buffer) => {
    const { payload, headers } = multipart(fileName, content);
    return app.inject({
      method: 'POST',
      url: '/api/contracts/batches/preview',
      headers: { ...headers, ...bearer(app, who, who.role_code) },
      payload,
    });
  };
  const validate = (who: SignedInUser, previewId: string, headers: Record<string, string> = {}) =>
    app.inject({
      method: 'POST',
      url: `/api/contracts/batches/${previewId}/validate`,
      headers: { ...bearer(app, who, who.role_code), ...headers },
    });
  const get = (who: SignedInUser, url: string) =>
    app.inject({ method: 'GET', url, headers: bearer(app, who, who.role_code) });

  const csv = (lines: string[][]) =>
    Buffer.from(
      [
        'Référence producteur;Téléphone;Parcelle;Quantité (t);Montant (FCFA);Date de livraison',
        ...lines.map((l) => l.join(';')),
      ].join('\n'),
    );

  beforeAll(async () => {
    const logger = createLogger('silent', false);
    db = testDb.db as Kysely<Database>;
    await runDemoSteps(
      { db, logger, openApp: (config, clock) => buildApp({ config, db, logger, clock }) },
      [identityDemoStep, walletDemoStep],
    );
    app = await buildApp({
      config: parseConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent' }),
      db,
      logger,
    });
    const load = userLoader(db);
    aggregator = (await load((await findDemoUser(db, 'agregateur@demo.filiere.bj')).id))!;
    // A grower's user in the aggregator's cluster, made a grower below (the demo's own grower,
    // producteur@, is registered by the actors' demo, which does not run here).
    grower = (await load(
      (await seedUser(db, 'ROLE_GROWER', { clusterId: aggregator.cluster_id })).id,
    ))!;
    const other = await seedUser(db, 'ROLE_INDUSTRIAL', { clusterId: aggregator.cluster_id });
    otherAggregator = (await load(other.id))!;
    for (let i = 0; i < 4; i += 1) {
      const user = await seedUser(db, 'ROLE_GROWER', { clusterId: aggregator.cluster_id });
      const row = await db
        .insertInto('growers')
        .values({
          user_id: user.id,
          cluster_id: aggregator.cluster_id!,
          department_code: 'D03',
          commune_code: 'C017',
          arrondissement_code: 'A098',
          village_code: 'V1',
        })
        .returning(['id', 'reference'])
        .executeTakeFirstOrThrow();
      const plot = await db
        .insertInto('plots')
        .values({
          grower_id: row.id,
          product_type: 'CAYENNE_LISSE',
          department_code: 'D03',
          commune_code: 'C017',
          arrondissement_code: 'A098',
          village_code: 'V1',
          name: `Parcelle ${i}`,
          area_sown: '1.5',
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const { phone } = await db
        .selectFrom('users')
        .select('phone')
        .where('id', '=', user.id)
        .executeTakeFirstOrThrow();
      growers.push({
        id: row.id,
        reference: row.reference,
        phone: phone!.replace('+22901', ''),
        plot: `Parcelle ${i}`,
        plotId: plot.id,
      });
    }
  });

  afterAll(async () => {
    await app?.close();
  });

  it('previews an .xlsx file (nothing created), then Valider creates the parent, every sub and its hold once', async () => {
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('Contrats');
    sheet.addRow([
      'Référence producteur',
      'Téléphone',
      'Parcelle',
      'Quantité (t)',
      'Montant (FCFA)',
      'Date de livraison',
    ]);
    sheet.addRow([growers[0]!.reference, '', '', 2.5, 100_000, `${nextBeninYear()}-01-15`]);
    sheet.addRow([
      '',
      growers[1]!.phone,
      growers[1]!.plot,
      '1,125',
      '50 000',
      `15/02/${nextBeninYear()}`,
    ]);
    sheet.addRow([growers[2]!.reference, '', growers[2]!.plot, '3', 70_000, '']);
    const before = await eventCount();
    const wallet = await walletOf(aggregator.wallet_id);
    const preview = await upload(
      aggregator,
      'contrats.xlsx',
      Buffer.from(await workbook.xlsx.writeBuffer()),
    );
    expect(preview.statusCode).toBe(201);
    const summary = preview.json();
    expect(summary).toMatchObject({
      count: 3,
      totalAmount: 220_000,
      totalQuantity: '6.625',
      source: 'FILE',
    });
    expect(await eventCount()).toBe(before);

    const page = await get(
      aggregator,
      `/api/contracts/batches/${summary.previewId}?page=1&limit=2`,
    );
    expect(page.statusCode).toBe(200);
    expect(page.json().data).toHaveLength(2);
    expect(page.json().data[1]).toMatchObject({
      line: 3,
      growerReference: growers[1]!.reference,
      plotName: growers[1]!.plot,
      quantity: '1.125',
      amount: 50_000,
      deliveryDate: `${nextBeninYear()}-02-15`,
    });
    // Another aggregator may neither read nor validate it.
    expect(
      (await get(otherAggregator, `/api/contracts/batches/${summary.previewId}`)).statusCode,
    ).toBe(403);
    expect((await validate(otherAggregator, summary.previewId)).statusCode).toBe(403);

    const first = await validate(aggregator, summary.previewId);
    expect(first.statusCode).toBe(201);
    expect(first.json()).toMatchObject({
      parentId: summary.previewId,
      count: 3,
      totalAmount: 220_000,
    });
    const afterFirst = await eventCount();
    // Validating twice (a retry, another tab) creates once.
    const second = await validate(aggregator, summary.previewId);
    expect(second.statusCode).toBe(201);
    expect(second.json()).toEqual(first.json());
    expect(await eventCount()).toBe(afterFirst);

    const after = await walletOf(aggregator.wallet_id);
    expect(after.availableBalance).toBe(wallet.availableBalance - 220_000);
    await project();
    // The parent is its own projection, committed before or after its subs': it tells the
    // aggregator's screens too (the sub-contracts page may have read before it: a 404).
    expect(parentPushes).toEqual([{ type: 'contracts.updated', userIds: [aggregator.id] }]);
    const subs = await db
      .selectFrom('delivery_contracts')
      .select(['id', 'amount', 'quantity_kg', 'status', 'delivery_date'])
      .where('parent_id', '=', summary.previewId)
      .orderBy('amount')
      .execute();
    expect(subs.map((s) => [Number(s.amount), Number(s.quantity_kg), s.status])).toEqual([
      [50_000, 1_125, 'PENDING'],
      [70_000, 3_000, 'PENDING'],
      [100_000, 2_500, 'PENDING'],
    ]);
    for (const sub of subs) {
      expect(after.holds.get(`contract-${sub.id}`)).toMatchObject({
        amount: Number(sub.amount),
        status: 'ACTIVE',
      });
    }

    const parents = await get(
      aggregator,
      `/api/contracts/smarts/${aggregator.id}/LIVRAISON_PARENT`,
    );
    expect(parents.statusCode).toBe(200);
    expect(parents.json()).toMatchObject({
      count: 1,
      data: [
        {
          id: summary.previewId,
          subContracts: 3,
          byStatus: { PENDING: 3 },
          meta: { amount: 220_000, quantity: '6.625' },
        },
      ],
    });
    const subList = await get(
      aggregator,
      `/api/contracts/sub-smarts/${summary.previewId}?q=${growers[1]!.reference}`,
    );
    expect(subList.statusCode).toBe(200);
    expect(subList.json()).toMatchObject({ count: 1, data: [{ meta: { amount: 50_000 } }] });
    // Reach: another aggregator, a grower.
    expect(
      (await get(otherAggregator, `/api/contracts/sub-smarts/${summary.previewId}`)).statusCode,
    ).toBe(403);
    expect(
      (await get(otherAggregator, `/api/contracts/smarts/${aggregator.id}/LIVRAISON_PARENT`))
        .statusCode,
    ).toBe(403);
    expect(
      (await get(grower, `/api/contracts/smarts/${aggregator.id}/LIVRAISON_PARENT`)).statusCode,
    ).toBe(403);
  });

  it('Valider sends each sub-contract’s grower his offer and one-time code, as a single contract’s; again, nothing more', async () => {
    const preview = await upload(
      aggregator,
      'contrats.csv',
      csv([
        [growers[0]!.reference, '', '', '1', '20000', ''],
        [growers[1]!.reference, '', '', '2', '12000', ''],
      ]),
    );
    expect(preview.statusCode, preview.body).toBe(201);
    const { previewId } = preview.json();
    const validated = await validate(aggregator, previewId);
    expect(validated.statusCode).toBe(201);
    expect((await validate(aggregator, previewId)).statusCode).toBe(201);
    await project();
    const codes = AcceptanceCodes.fromSecret(app.deps.config.JWT_SECRET);
    const subs = await db
      .selectFrom('delivery_contracts')
      .select(['id', 'reference', 'grower_id'])
      .where('parent_id', '=', previewId)
      .execute();
    expect(subs).toHaveLength(2);
    for (const sub of subs) {
      const issued = (await app.eventStore.readStream(`contract-${sub.id}`)).filter(
        (e) => e.type === 'AcceptanceCodeIssued',
      );
      expect(issued).toHaveLength(1);
      const { phone, salt, codeHash, codeId } = issued[0]!.data as Record<string, string>;
      const { phone: growerPhone } = await db
        .selectFrom('growers as g')
        .innerJoin('users as u', 'u.id', 'g.user_id')
        .select('u.phone')
        .where('g.id', '=', sub.grower_id)
        .executeTakeFirstOrThrow();
      expect(phone).toBe(growerPhone);
      // One offer per sub-contract, to the grower's phone, its code the one the stream hashed.
      const sms = await db
        .selectFrom('sms_outbox')
        .select(['text', 'kind', 'dedupe_key'])
        .where('recipient', '=', phone!)
        .where('text', 'like', `%contrat ${sub.reference},%`)
        .execute();
      expect(sms).toHaveLength(1);
      expect(sms[0]).toMatchObject({
        kind: 'contract-offer',
        dedupe_key: `contract-offer:${codeId}`,
      });
      const code = /donnez le code (\d{6})$/.exec(sms[0]!.text)?.[1];
      expect(code).toMatch(/^\d{6}$/);
      expect(await codes.hash(code!, salt!)).toBe(codeHash);
    }
  });

  it('refuses a whole .csv file with a bad row, naming every problem by line, column and reason', async () => {
    const before = await eventCount();
    const previews = await db.selectFrom('contract_batch_previews').select('id').execute();
    const response = await upload(
      aggregator,
      'contrats.csv',
      csv([
        [growers[0]!.reference, '', '', '2', '10000', ''],
        ['PRD-999999', '', '', '2.5', '10000', ''],
        [growers[1]!.reference, '', '', '2.5001', '0', '31/02/2027'],
        ['', '', '', '1', '5000', '2020-01-01'],
        [growers[0]!.reference, '', growers[0]!.plot, '1', '1000', ''],
      ]),
    );
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe(
      'Le fichier contient des erreurs : aucun contrat n’a été créé',
    );
    expect(response.json().problems).toEqual([
      { line: 3, column: 'Référence producteur', reason: 'Producteur introuvable' },
      {
        line: 4,
        column: 'Quantité (t)',
        reason: 'Entré non valide : une quantité en tonnes, au plus trois décimales, non nulle',
      },
      {
        line: 4,
        column: 'Montant (FCFA)',
        reason: 'Entré non valide : un montant entier en FCFA, non nul',
      },
      { line: 4, column: 'Date de livraison', reason: 'Date invalide : AAAA-MM-JJ ou JJ/MM/AAAA' },
      {
        line: 5,
        column: 'Référence producteur',
        reason: 'Renseignez la référence ou le téléphone du producteur',
      },
      {
        line: 5,
        column: 'Date de livraison',
        reason: 'La date de livraison ne peut pas être passée',
      },
      {
        line: 6,
        column: 'Parcelle',
        reason: 'Ce producteur et cette parcelle figurent déjà ligne 2',
      },
    ]);
    expect(await eventCount()).toBe(before);
    expect(await db.selectFrom('contract_batch_previews').select('id').execute()).toEqual(previews);
  });

  it('refuses a renamed file, a file over the row limit and a missing file, in French', async () => {
    const pdf = await upload(aggregator, 'contrats.xlsx', Buffer.from('%PDF-1.4 not a workbook'));
    expect(pdf.statusCode).toBe(400);
    expect(pdf.json().message).toBe(
      'Le fichier doit être un classeur Excel (.xlsx) ou un fichier CSV (.csv)',
    );
    const zipAsCsv = await upload(
      aggregator,
      'contrats.csv',
      Buffer.from([0x50, 0x4b, 0x03, 0x04, 1, 2]),
    );
    expect(zipAsCsv.statusCode).toBe(400);
    const rows = Array.from({ length: 10_001 }, () => [
      growers[0]!.reference,
      '',
      '',
      '1',
      '1',
      '',
    ]);
    const tooMany = await upload(aggregator, 'contrats.csv', csv(rows));
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json().message).toBe('Le fichier dépasse 10 000 lignes de producteurs');
    const big = await upload(aggregator, 'contrats.csv', Buffer.alloc(5 * 1024 * 1024 + 10, 'a'));
    expect(big.statusCode).toBe(400);
    expect(big.json().message).toBe('Le fichier dépasse la taille maximale de 5 Mo');
    const none = await app.inject({
      method: 'POST',
      url: '/api/contracts/batches/preview',
      headers: bearer(app, aggregator, aggregator.role_code),
      payload: {},
    });
    expect(none.statusCode).toBe(400);
    expect((await upload(grower, 'contrats.csv', csv([]))).statusCode).toBe(403);
  });

  it('answers 422 with the missing amount for the total and writes nothing', async () => {
    const wallet = await walletOf(aggregator.wallet_id);
    const half = Math.floor(wallet.availableBalance / 2) + 1000;
    const preview = await upload(
      aggregator,
      'contrats.csv',
      csv([
        [growers[0]!.reference, '', '', '1', String(half), ''],
        [growers[3]!.reference, '', '', '1', String(half), ''],
      ]),
    );
    expect(preview.statusCode).toBe(201);
    const before = await eventCount();
    const refused = await validate(aggregator, preview.json().previewId);
    expect(refused.statusCode).toBe(422);
    const missing = 2 * half - wallet.availableBalance;
    expect(refused.json()).toMatchObject({
      missingAmount: missing,
      message: `Le solde disponible de votre wallet est insuffisant pour créer ce contrat. Il manque ${new Intl.NumberFormat('fr-FR').format(missing)} FCFA`,
    });
    expect(await eventCount()).toBe(before);
    expect((await walletOf(aggregator.wallet_id)).availableBalance).toBe(wallet.availableBalance);
  });

  it('creates from selected growers, with the template naming their references', async () => {
    const template = await get(
      aggregator,
      `/api/contracts/batches/template?format=csv&growerIds=${growers[3]!.id}`,
    );
    expect(template.statusCode).toBe(200);
    expect(template.body).toContain(growers[3]!.reference);
    const preview = await app.inject({
      method: 'POST',
      url: '/api/contracts/batches/from-growers',
      headers: bearer(app, aggregator, aggregator.role_code),
      payload: {
        rows: [
          { growerId: growers[3]!.id, productId: growers[3]!.plotId, quantity: 2, amount: 30_000 },
          { growerId: growers[2]!.id, productId: growers[3]!.plotId, quantity: 1, amount: 10_000 },
        ],
      },
    });
    const none = (who: SignedInUser) =>
      app.inject({
        method: 'POST',
        url: '/api/contracts/batches/from-growers',
        headers: bearer(app, who, who.role_code),
        payload: { rows: [] },
      });
    expect((await none(grower)).statusCode).toBe(403);
    expect((await none(aggregator)).json()).toMatchObject({
      statusCode: 400,
      message: 'Choisissez au moins un producteur',
    });
    expect(preview.statusCode).toBe(400);
    expect(preview.json().problems).toEqual([
      { line: 2, column: 'Parcelle', reason: 'Parcelle introuvable pour ce producteur' },
    ]);
    const ok = await app.inject({
      method: 'POST',
      url: '/api/contracts/batches/from-growers',
      headers: bearer(app, aggregator, aggregator.role_code),
      payload: {
        rows: [
          { growerId: growers[3]!.id, productId: growers[3]!.plotId, quantity: 2, amount: 30_000 },
        ],
      },
    });
    expect(ok.statusCode).toBe(201);
    expect(ok.json()).toMatchObject({ source: 'GROWERS', count: 1 });
    const created = await validate(aggregator, ok.json().previewId, { 'idempotency-key': 'k-1' });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({ count: 1, totalAmount: 30_000 });
  });
  it('reach: a grower of another cluster is a problem of its row (file and selection), nothing created; moved before Valider, 403', async () => {
    const elsewhere = await seedCluster(db, 'Cluster voisin');
    const user = await seedUser(db, 'ROLE_GROWER', { clusterId: elsewhere });
    const foreign = await db
      .insertInto('growers')
      .values({
        user_id: user.id,
        cluster_id: elsewhere,
        department_code: 'D03',
        commune_code: 'C017',
        arrondissement_code: 'A098',
        village_code: 'V1',
      })
      .returning(['id', 'reference'])
      .executeTakeFirstOrThrow();
    const plot = await db
      .insertInto('plots')
      .values({
        grower_id: foreign.id,
        product_type: 'CAYENNE_LISSE',
        department_code: 'D03',
        commune_code: 'C017',
        arrondissement_code: 'A098',
        village_code: 'V1',
        name: 'Parcelle voisine',
        area_sown: '1',
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const previews = async () =>
      Number(
        (
          await db
            .selectFrom('contract_batch_previews')
            .select((eb) => eb.fn.countAll<string>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const events = await eventCount();
    const stored = await previews();
    const outOfReach = 'Ce producteur n’est pas dans votre périmètre';
    const file = await upload(
      aggregator,
      'voisins.csv',
      csv([
        [growers[0]!.reference, '', '', '1', '10000', ''],
        [foreign.reference, '', '', '1', '10000', ''],
      ]),
    );
    expect(file.statusCode, file.body).toBe(400);
    expect(file.json().problems).toEqual([
      { line: 3, column: 'Référence producteur', reason: outOfReach },
    ]);
    const selected = await app.inject({
      method: 'POST',
      url: '/api/contracts/batches/from-growers',
      headers: bearer(app, aggregator, aggregator.role_code),
      payload: {
        rows: [{ growerId: foreign.id, productId: plot.id, quantity: 1, amount: 10_000 }],
      },
    });
    expect(selected.statusCode, selected.body).toBe(400);
    expect(selected.json().problems).toEqual([
      { line: 1, column: 'Référence producteur', reason: outOfReach },
    ]);
    expect(await previews()).toBe(stored);
    expect(await eventCount()).toBe(events);

    // A grower of the cluster at the preview, moved to another before 'Valider'.
    const preview = await upload(
      aggregator,
      'avant.csv',
      csv([[growers[3]!.reference, '', '', '1', '10000', '']]),
    );
    expect(preview.statusCode, preview.body).toBe(201);
    await db
      .updateTable('growers')
      .set({ cluster_id: elsewhere })
      .where('id', '=', growers[3]!.id)
      .execute();
    try {
      const wallet = await walletOf(aggregator.wallet_id);
      const moved = await validate(aggregator, preview.json().previewId);
      expect(moved.statusCode, moved.body).toBe(403);
      expect(moved.json().message).toBe(outOfReach);
      expect(await eventCount()).toBe(events);
      expect((await walletOf(aggregator.wallet_id)).held).toBe(wallet.held);
    } finally {
      await db
        .updateTable('growers')
        .set({ cluster_id: aggregator.cluster_id! })
        .where('id', '=', growers[3]!.id)
        .execute();
    }
  });

  it('numbers under one rule: a quantity over 1 000 000 t is refused as text or number, in a file and a selection', async () => {
    const ceiling = 'La quantité ne peut pas dépasser 1 000 000 t';
    const file = await upload(
      aggregator,
      'plafond.csv',
      csv([
        [growers[0]!.reference, '', '', '1000001', '10000', ''],
        [growers[1]!.reference, '', '', '"1 000 000,5"', '10000', ''],
        [growers[2]!.reference, '', '', '1000000', '10000', ''],
      ]),
    );
    expect(file.statusCode, file.body).toBe(400);
    expect(file.json().problems).toEqual([
      { line: 2, column: 'Quantité (t)', reason: ceiling },
      { line: 3, column: 'Quantité (t)', reason: ceiling },
    ]);
    for (const quantity of ['1000001', 1_000_001, '1,2345', 'beaucoup']) {
      const res = await app.inject({
        method: 'POST',
        url: '/api/contracts/batches/from-growers',
        headers: bearer(app, aggregator, aggregator.role_code),
        payload: {
          rows: [{ growerId: growers[0]!.id, productId: growers[0]!.plotId, quantity, amount: 1 }],
        },
      });
      expect(res.statusCode, `${quantity}: ${res.body}`).toBe(400);
    }
    const comma = await app.inject({
      method: 'POST',
      url: '/api/contracts/batches/from-growers',
      headers: bearer(app, aggregator, aggregator.role_code),
      payload: {
        rows: [
          {
            growerId: growers[0]!.id,
            productId: growers[0]!.plotId,
            quantity: '1,5',
            amount: '15 000',
          },
        ],
      },
    });
    expect(comma.statusCode, comma.body).toBe(201);
    expect(comma.json()).toMatchObject({ totalQuantity: '1.5', totalAmount: 15_000 });
  });
});
