import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Kysely } from 'kysely';
import { createLogger, narrowDb } from '@filiere/platform';
import { catalogueDecoder, catchUp } from '@filiere/projections';
import { buildApp } from '../../app.js';
import { DeliveryContractCommands, type ContractFactsTables } from '../../contracts/index.js';
import { contractsProjector } from '../../contracts/read-model/index.js';
import { identityDemoStep } from '../../identity/demo/identity.js';
import { createSms, findDemoUser, userLoader } from '../../identity/index.js';
import { runDemoSteps } from '../../kernel/index.js';
import type { SignedInUser } from '../../kernel/actor.js';
import { product } from '../../modules.js';
import { walletDemoStep } from '../../wallet/demo/wallet.js';
import { useTestDatabase } from '@filiere/platform/testing';
import type { Database } from '../../database.js';
import { SmsOutboxStore } from '../../identity/index.js';
import { seedUser } from '../../identity/test-support.js';
import { ROLE } from '../../kernel/roles.js';
import { buildTestApp } from '../../test-app.js';
import { SmsDispatcher } from '../dispatch/dispatcher.js';
import { twilioStatusCallback } from '../gateway/index.js';
import { TWILIO_INBOUND_PATH, twilioGateway, twilioSignature } from '../gateway/twilio.js';
import { TwilioStandIn } from '../testing/twilio-stand-in.js';
import { AcceptanceCodes } from '../../contracts/commands/acceptance-code.js';

const logger = createLogger('silent', false);
const PUBLIC_URL = 'http://filiere.test';

/**
 * A grower texts Filière's number: Twilio posts the message, signed, to the inbound webhook;
 * the answer goes through the outbox and the stand-in gateway to his registered phone only.
 */
describe('SMS a grower sends: SOLDE, RELEVE, help', () => {
  const testDb = useTestDatabase<Database>();
  let standIn: TwilioStandIn;
  let app: FastifyInstance;
  let dispatcher: SmsDispatcher;
  let grower: { id: string; phone: string; walletId: string };
  let sid = 0;
  let aggregator: SignedInUser;

  beforeAll(async () => {
    standIn = await new TwilioStandIn().start();
    app = await buildTestApp(testDb.db, {
      env: {
        PUBLIC_URL,
        SMS_GATEWAY: 'twilio',
        TWILIO_BASE_URL: standIn.url,
        TWILIO_ACCOUNT_SID: standIn.accountSid,
        TWILIO_AUTH_TOKEN: standIn.authToken,
        TWILIO_FROM: 'FILIERE',
      },
    });
    dispatcher = new SmsDispatcher(
      SmsOutboxStore.of(testDb.db),
      twilioGateway({
        baseUrl: standIn.url,
        accountSid: standIn.accountSid,
        authToken: standIn.authToken,
        from: 'FILIERE',
        statusCallback: twilioStatusCallback(PUBLIC_URL),
      }),
      logger,
    );
    const db = testDb.db as Kysely<Database>;
    await runDemoSteps(
      { db, logger, openApp: (config, clock) => buildApp({ config, db, logger, clock }) },
      [identityDemoStep, walletDemoStep],
    );
    const load = userLoader(db);
    aggregator = (await load((await findDemoUser(db, 'agregateur@demo.filiere.bj')).id))!;
    const seeded = await seedUser(testDb.db, ROLE.GROWER, { clusterId: aggregator.cluster_id });
    const row = await testDb.db
      .selectFrom('users')
      .select(['phone', 'wallet_id'])
      .where('id', '=', seeded.id)
      .executeTakeFirstOrThrow();
    grower = { id: seeded.id, phone: row.phone!, walletId: String(row.wallet_id) };
    // The wallet's history read table: a payment in, a hold, a withdrawal out.
    const base = {
      wallet_id: grower.walletId,
      opened: true,
      opened_wallet_id: grower.walletId,
      held: 0,
    };
    await testDb.db
      .insertInto('wallet_balance_history')
      .values([
        {
          ...base,
          position: 9_000_001,
          version: 1,
          recorded_at: '2026-12-01T10:00:00Z',
          type: 'WalletCredited',
          amount: 150_000,
          available_amount: 150_000,
          balance: 150_000,
          available_balance: 150_000,
          reference: null,
        },
        {
          ...base,
          position: 9_000_002,
          version: 2,
          recorded_at: '2026-12-03T23:30:00Z',
          type: 'HoldPlaced',
          amount: 0,
          available_amount: -20_000,
          balance: 150_000,
          held: 20_000,
          available_balance: 130_000,
          reference: null,
        },
        {
          ...base,
          position: 9_000_003,
          version: 3,
          recorded_at: '2026-12-05T23:30:00Z',
          type: 'WithdrawalDebited',
          amount: -25_500,
          available_amount: -25_500,
          balance: 124_500,
          held: 20_000,
          available_balance: 104_500,
          reference: null,
        },
      ])
      .execute();
  });
  afterAll(async () => {
    await app?.close();
    await standIn.stop();
  });
  beforeEach(() => sql`truncate sms_outbox`.execute(testDb.db));

  const message = (from: string, body: string, id?: string) => ({
    MessageSid: id ?? `SM${String(++sid).padStart(32, '0')}`,
    From: from,
    To: '+12025550100',
    Body: body,
  });
  const post = (params: Record<string, string>, signature?: string) =>
    app.inject({
      method: 'POST',
      url: TWILIO_INBOUND_PATH,
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        'x-twilio-signature':
          signature ??
          twilioSignature(standIn.authToken, `${PUBLIC_URL}${TWILIO_INBOUND_PATH}`, params),
      },
      payload: new URLSearchParams(params).toString(),
    });
  const outbox = () => testDb.db.selectFrom('sms_outbox').selectAll().orderBy('id').execute();

  it('answers SOLDE with the balance, to the registered phone, sent through the gateway', async () => {
    const answer = await post(message(grower.phone, ' solde '));
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['content-type']).toContain('text/xml');
    const [reply, ...others] = await outbox();
    expect(others).toEqual([]);
    expect(reply).toMatchObject({
      recipient: grower.phone,
      kind: 'balance-reply',
      user_id: grower.id,
      text: 'Filière : votre solde est de 124 500 F CFA dont 104 500 F disponibles.',
    });
    await dispatcher.runDue();
    expect(standIn.messages.map((m) => [m.to, m.body])).toContainEqual([grower.phone, reply!.text]);
  });

  it('answers RELEVE with the last movements of the balance, Benin days, holds left out', async () => {
    await post(message(grower.phone, 'Relevé'));
    expect((await outbox()).map((r) => r.text)).toEqual([
      'Filière : derniers mouvements : 06/12 -25 500 F; 01/12 +150 000 F. Solde : 124 500 F CFA.',
    ]);
  });

  it('answers any other word with a short help', async () => {
    await post(message(grower.phone, 'bonjour'));
    expect((await outbox()).map((r) => r.text)).toEqual([
      'Filière : envoyez SOLDE pour votre solde, RELEVE pour vos derniers mouvements, OUI et le code pour accepter un contrat.',
    ]);
  });

  it('answers a message once however often Twilio posts it', async () => {
    const params = message(grower.phone, 'SOLDE');
    await post(params);
    await post(params);
    expect(await outbox()).toHaveLength(1);
  });

  it('answers nothing to a number that is no grower’s, nor to another role', async () => {
    await post(message('+2290199999999', 'SOLDE'));
    const admin = await seedUser(testDb.db, ROLE.ADMIN);
    const { phone } = await testDb.db
      .selectFrom('users')
      .select('phone')
      .where('id', '=', admin.id)
      .executeTakeFirstOrThrow();
    await post(message(phone!, 'SOLDE'));
    expect(await outbox()).toEqual([]);
  });

  it('refuses (403) a message whose signature is not Twilio’s, and answers nothing', async () => {
    const params = message(grower.phone, 'SOLDE');
    const forged = twilioSignature('another-token', `${PUBLIC_URL}${TWILIO_INBOUND_PATH}`, params);
    expect((await post(params, forged)).statusCode).toBe(403);
    expect((await post({ ...params, From: '+2290100000001' }, forged)).statusCode).toBe(403);
    expect(await outbox()).toEqual([]);
  });

  describe('OUI <code>: the grower accepts the contract offered with that code', () => {
    let contracts: DeliveryContractCommands;
    let plotId: string;
    beforeAll(async () => {
      const db = testDb.db as Kysely<Database>;
      const { id: growerId } = await db
        .insertInto('growers')
        .values({
          user_id: grower.id,
          cluster_id: aggregator.cluster_id!,
          department_code: 'D03',
          commune_code: 'C017',
          arrondissement_code: 'A098',
          village_code: 'V1',
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      plotId = (
        await db
          .insertInto('plots')
          .values({
            grower_id: growerId,
            product_type: 'CAYENNE_LISSE',
            department_code: 'D03',
            commune_code: 'C017',
            arrondissement_code: 'A098',
            village_code: 'V1',
            name: 'Parcelle SMS',
            area_sown: '1',
          })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id;
      growerRowId = growerId;
      contracts = new DeliveryContractCommands(
        narrowDb<ContractFactsTables>()(db),
        app.commands,
        () => new Date('2026-11-25T10:00:00Z'),
        createSms({ NODE_ENV: 'test' }, db, logger),
        AcceptanceCodes.fromSecret(app.deps.config.JWT_SECRET),
      );
    });
    let growerRowId: string;

    /** A new PENDING contract, projected, and the code its offer carried. */
    const offer = async () => {
      const db = testDb.db as Kysely<Database>;
      const created = await contracts.create(aggregator, {
        growerId: growerRowId,
        productId: plotId,
        quantity: '1',
        amount: 100_000,
      });
      await catchUp(db, contractsProjector, { decode: catalogueDecoder(product.catalogue) });
      const text = (await outbox()).find((r) => r.text.includes(`contrat ${created.reference},`));
      return { ...created, code: /code (\d{6})$/.exec(text!.text)![1]! };
    };
    const typesOf = async (contractId: string) =>
      (await app.eventStore.readStream(`contract-${contractId}`)).map((e) => e.type);
    const lastReply = async () =>
      (await outbox()).filter((r) => r.kind === 'balance-reply').at(-1)?.text;

    it('accepts the contract by its code, recorded for the phone, and says so', async () => {
      const contract = await offer();
      await post(
        message(grower.phone, `oui ${contract.code.slice(0, 3)} ${contract.code.slice(3)}`),
      );
      expect(await lastReply()).toBe(`Filière : contrat ${contract.reference} accepté. Merci.`);
      const events = await app.eventStore.readStream(`contract-${contract.contractId}`);
      expect(events.map((e) => e.type)).toEqual([
        'DeliveryContractCreated',
        'AcceptanceCodeIssued',
        'DeliveryContractConfirmed',
        'DeliveryContractAccepted',
      ]);
      expect(events.at(-1)!.data).toMatchObject({
        method: 'CODE',
        acceptedBy: grower.id,
        phone: grower.phone,
      });
      expect(JSON.stringify(events)).not.toContain(`"${contract.code}"`);
    });

    it('counts a wrong code as an attempt, and locks the code after the same limit as Confirmer', async () => {
      const contract = await offer();
      const wrong = contract.code === '000000' ? '111111' : '000000';
      for (let i = 4; i >= 1; i--) {
        await post(message(grower.phone, `OUI ${wrong}`));
        expect(await lastReply()).toBe(
          `Filière : code incorrect, il reste ${i} essai${i > 1 ? 's' : ''}.`,
        );
      }
      await post(message(grower.phone, `OUI ${wrong}`));
      expect(await lastReply()).toBe(
        'Filière : code incorrect, il est maintenant bloqué. Demandez un nouveau code à votre coopérative.',
      );
      // Locked: even the right code no longer accepts.
      await post(message(grower.phone, `OUI ${contract.code}`));
      expect(await lastReply()).toBe(
        'Filière : ce code est bloqué. Demandez un nouveau code à votre coopérative.',
      );
      const types = await typesOf(contract.contractId);
      expect(types.filter((t) => t === 'AcceptanceCodeRejected')).toHaveLength(5);
      expect(types).not.toContain('DeliveryContractAccepted');
    });

    it('spends no second attempt when Twilio posts the same message again', async () => {
      const contract = await offer();
      const wrong = contract.code === '000000' ? '111111' : '000000';
      const params = message(grower.phone, `OUI ${wrong}`);
      await post(params);
      await post(params);
      const types = await typesOf(contract.contractId);
      expect(types.filter((t) => t === 'AcceptanceCodeRejected')).toHaveLength(1);
    });

    it('spends one attempt when Twilio posts the same message twice at once', async () => {
      const contract = await offer();
      const wrong = contract.code === '000000' ? '111111' : '000000';
      const params = message(grower.phone, `OUI ${wrong}`);
      const answers = await Promise.all([post(params), post(params)]);
      expect(answers.map((a) => a.statusCode)).toEqual([200, 200]);
      const types = await typesOf(contract.contractId);
      expect(types.filter((t) => t === 'AcceptanceCodeRejected')).toHaveLength(1);
    });

    it('accepts once when Twilio posts the right code twice at once', async () => {
      const contract = await offer();
      const params = message(grower.phone, `OUI ${contract.code}`);
      await Promise.all([post(params), post(params)]);
      const types = await typesOf(contract.contractId);
      expect(types.filter((t) => t === 'DeliveryContractAccepted')).toHaveLength(1);
      expect(types.filter((t) => t === 'AcceptanceCodeRejected')).toHaveLength(0);
      expect((await outbox()).filter((r) => r.kind === 'balance-reply')).toHaveLength(1);
    });

    it('answers a message posted again after its reply was lost as the first time, spending nothing', async () => {
      const contract = await offer();
      const other = await offer();
      const params = message(grower.phone, `OUI ${contract.code}`);
      await post(params);
      // The process died after the acceptance, before the reply: Twilio posts the message
      // again, and the read model has not yet seen the acceptance.
      await sql`delete from sms_outbox where dedupe_key = ${`inbound:${params.MessageSid}`}`.execute(
        testDb.db,
      );
      await post(params);
      expect(await lastReply()).toBe(`Filière : contrat ${contract.reference} accepté. Merci.`);
      const types = await typesOf(contract.contractId);
      expect(types.filter((t) => t === 'DeliveryContractAccepted')).toHaveLength(1);
      expect(await typesOf(other.contractId)).not.toContain('AcceptanceCodeRejected');
    });

    it('answers the code of a contract already accepted, sent again in another message, as accepted, spending nothing', async () => {
      const contract = await offer();
      const other = await offer();
      await post(message(grower.phone, `OUI ${contract.code}`));
      await catchUp(testDb.db as Kysely<Database>, contractsProjector, {
        decode: catalogueDecoder(product.catalogue),
      });
      await post(message(grower.phone, `OUI ${contract.code}`));
      expect(await lastReply()).toBe(`Filière : contrat ${contract.reference} accepté. Merci.`);
      expect(await typesOf(other.contractId)).not.toContain('AcceptanceCodeRejected');
      const types = await typesOf(contract.contractId);
      expect(types.filter((t) => t === 'DeliveryContractAccepted')).toHaveLength(1);
    });

    it('answers a grower with no contract waiting that none is, twice the same', async () => {
      const lone = await seedUser(testDb.db, ROLE.GROWER, { clusterId: aggregator.cluster_id });
      const { phone } = await testDb.db
        .selectFrom('users')
        .select('phone')
        .where('id', '=', lone.id)
        .executeTakeFirstOrThrow();
      const params = message(phone!, 'OUI 123456');
      await Promise.all([post(params), post(params)]);
      expect((await outbox()).filter((r) => r.recipient === phone).map((r) => r.text)).toEqual([
        'Filière : aucun contrat en attente de votre accord pour ce numéro.',
      ]);
    });

    it('accepts nothing from another number, and explains the form of the answer', async () => {
      const contract = await offer();
      await post(message('+2290199999998', `OUI ${contract.code}`));
      await post(message(grower.phone, 'OUI'));
      expect(await lastReply()).toBe(
        "Filière : pour accepter un contrat, envoyez OUI suivi du code de 6 chiffres de l'offre.",
      );
      expect(await typesOf(contract.contractId)).not.toContain('DeliveryContractAccepted');
    });
  });
});
