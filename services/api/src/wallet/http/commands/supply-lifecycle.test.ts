import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catchUp } from '@filiere/projections';
import { useTestDatabase } from '@filiere/platform/testing';
import { bearer, seedOrganization, seedUser } from '../../../identity/test-support.js';
import { buildTestApp } from '../../../test-app.js';
import { walletProjectors } from '../../read-model/index.js';
import { walletDecoder } from '../../read-model/test-support.js';
import {
  countEvents,
  supplyState,
  walletState,
  walletUser,
  withKey,
  type TestUser,
} from './test-support.js';
import type { Database } from '../../../database.js';

/**
 * A supply the payer gives up (Réessayer / Annuler), a bank supply a super admin
 * rejects (who asked, the reason, the requester told), the payer's number for the widget.
 */
describe('supply lifecycle: retry, cancel, reject, requester, payer number', () => {
  const testDb = useTestDatabase<Database>();
  let app: FastifyInstance;
  let superAdmin: TestUser;
  let admin: TestUser;
  let payer: TestUser;
  let other: TestUser;

  beforeAll(async () => {
    app = await buildTestApp(testDb.db, { env: { PUBLIC_URL: 'http://localhost:3000' } });
    superAdmin = await walletUser(app, testDb.db, 'ROLE_SUPER_ADMIN');
    admin = await walletUser(app, testDb.db, 'ROLE_ADMIN');
    payer = await walletUser(app, testDb.db, 'ROLE_INDUSTRIAL');
    other = await walletUser(app, testDb.db, 'ROLE_INDUSTRIAL');
    const organization = await seedOrganization(testDb.db, 'Ananas du Sud SARL');
    await testDb.db
      .updateTable('users')
      .set({ organization_id: organization, firstname: 'Afi', lastname: 'Houngbo' })
      .where('id', '=', payer.id)
      .execute();
  });
  afterAll(async () => {
    await app.close();
  });

  const create = (user: TestUser, payload: Record<string, unknown>) =>
    app.inject({ method: 'POST', url: '/api/supply', headers: withKey(user), payload });
  const momo = async (user = payer, phone?: string) => {
    const res = await create(user, {
      amount: 4_000,
      walletId: user.walletId,
      accountType: 'MOBILE_MONEY',
      ...(phone ? { phone } : {}),
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as { reference: string; widget: Record<string, unknown> };
  };
  const bankSupply = async (amount = 80_000) => {
    const res = await create(payer, {
      amount,
      walletId: payer.walletId,
      accountType: 'BANK',
      bank: 'BAB',
    });
    expect(res.statusCode, res.body).toBe(201);
    return (res.json() as { reference: string }).reference;
  };
  const cancel = (user: TestUser, reference: string, key?: string) =>
    app.inject({
      method: 'POST',
      url: `/api/supply/cancel/${reference}`,
      headers: withKey(user, key),
    });
  const widget = (user: TestUser, reference: string) =>
    app.inject({ method: 'GET', url: `/api/supply/widget/${reference}`, headers: user.headers });
  const reject = (user: TestUser, payload: Record<string, unknown>, key?: string) =>
    app.inject({
      method: 'POST',
      url: '/api/supply/reject-bank-supply',
      headers: withKey(user, key),
      payload,
    });
  const validate = (reference: string) =>
    app.inject({
      method: 'POST',
      url: '/api/supply/validate-bank-supply',
      headers: withKey(superAdmin),
      payload: { reference, supplyReference: reference },
    });
  const project = async () => {
    for (const projector of walletProjectors) {
      await catchUp(testDb.db, projector, { decode: walletDecoder });
    }
  };
  const listed = async (user: TestUser, url: string, reference: string) => {
    await project();
    const res = await app.inject({ method: 'GET', url, headers: user.headers });
    expect(res.statusCode, res.body).toBe(200);
    return (res.json() as { data: Record<string, unknown>[] }).data.find(
      (s) => s.reference === reference,
    );
  };
  const outbox = (reference: string) =>
    testDb.db
      .selectFrom('outbox')
      .select(['recipient', 'subject', 'text'])
      .where('text', 'like', `%${reference}%`)
      .execute();

  it('Réessayer: the payer gets the widget again for the same reference while it is INIT', async () => {
    const created = await momo(payer, '96 00 00 01');
    const again = await widget(payer, created.reference);
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json()).toEqual({
      reference: created.reference,
      status: 'INIT',
      widget: created.widget,
    });
    expect((await widget(other, created.reference)).statusCode).toBe(404);
    expect((await widget(payer, 'APP-UNKNOWN')).statusCode).toBe(404);
  });

  it('Annuler: the payer cancels an INIT supply → FAILED (cancelled), once; others get 404', async () => {
    const { reference } = await momo();
    expect((await cancel(other, reference)).statusCode).toBe(404);
    const noKey = await app.inject({
      method: 'POST',
      url: `/api/supply/cancel/${reference}`,
      headers: payer.headers,
    });
    expect(noKey.statusCode).toBe(400);
    const before = await countEvents(testDb.db, 'SupplyCancelled');
    const res = await cancel(payer, reference, 'cancel-1');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ reference, status: 'FAILED', credited: false });
    expect((await cancel(payer, reference, 'cancel-1')).json()).toMatchObject({ status: 'FAILED' });
    expect((await cancel(payer, reference)).statusCode).toBe(200);
    expect(await countEvents(testDb.db, 'SupplyCancelled')).toBe(before + 1);
    expect((await supplyState(app, reference)).failureKind).toBe('CANCELLED');

    const row = await listed(payer, `/api/supply/momo-card/${payer.id}`, reference);
    expect(row).toMatchObject({ status: 'FAILED', failureCode: 'CANCELLED' });
    // No widget for it any more, and the sandbox page says it is dealt with.
    const gone = await widget(payer, reference);
    expect(gone.statusCode).toBe(422);
    expect(gone.json().message).toBe('Cet approvisionnement n’attend plus de paiement');
  });

  it('a supply being verified (PENDING), a credited one or a bank one cannot be cancelled (422, French)', async () => {
    const { reference } = await momo();
    const paid = await app.inject({
      method: 'POST',
      url: `/api/sandbox/pay/${reference}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'outcome=SUCCESS',
    });
    expect(paid.statusCode).toBe(303);
    const pending = await cancel(payer, reference);
    expect(pending.statusCode).toBe(422);
    expect(pending.json().message).toBe(
      'Ce paiement est en cours de vérification : l’approvisionnement ne peut plus être annulé',
    );
    const slip = await bankSupply();
    const bank = await cancel(payer, slip);
    expect(bank.statusCode).toBe(422);
    expect(bank.json().message).toBe(
      'Un approvisionnement par virement est validé ou rejeté par un super administrateur',
    );
  });

  it('keeps the payer’s mobile money number (E.164) for the widget; refuses a bad one (400)', async () => {
    const { reference } = await momo(payer, '0196000002');
    expect((await supplyState(app, reference)).payerPhone).toBe('+2290196000002');
    const row = await listed(payer, `/api/supply/momo-card/${payer.id}`, reference);
    expect(row).toMatchObject({ payerPhone: '+2290196000002' });
    const bad = await create(payer, {
      amount: 1,
      walletId: payer.walletId,
      accountType: 'MOBILE_MONEY',
      phone: '12ab',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fields).toEqual({ phone: 'Numéro de téléphone invalide' });
  });

  it('the admin list names the requester and its organisation (joined from users at read time)', async () => {
    const reference = await bankSupply(10_000);
    const row = await listed(superAdmin, '/api/supply?type=BANK&limit=100', reference);
    expect(row).toMatchObject({
      status: 'INIT',
      user: {
        id: payer.id,
        firstname: 'Afi',
        lastname: 'Houngbo',
        organization: 'Ananas du Sud SARL',
      },
    });
    // A renamed requester shows under the new name: nothing was projected.
    await testDb.db
      .updateTable('users')
      .set({ lastname: 'Houngbo-Dossou' })
      .where('id', '=', payer.id)
      .execute();
    const renamed = await listed(admin, '/api/supply?type=BANK&limit=100', reference);
    expect(renamed).toMatchObject({ user: { lastname: 'Houngbo-Dossou' } });
    const byOrganisation = await app.inject({
      method: 'GET',
      url: '/api/supply?type=BANK&q=Ananas%20du%20Sud',
      headers: superAdmin.headers,
    });
    expect(byOrganisation.json().data.map((s: { reference: string }) => s.reference)).toContain(
      reference,
    );
    await testDb.db
      .updateTable('users')
      .set({ lastname: 'Houngbo' })
      .where('id', '=', payer.id)
      .execute();
  });

  it('Rejeter: a super admin rejects a bank supply with a reason → FAILED; the requester is mailed once', async () => {
    const reference = await bankSupply(75_000);
    const blank = await reject(superAdmin, { reference, reason: '   ' });
    expect(blank.statusCode).toBe(400);
    expect(blank.json().fields).toEqual({ reason: 'Ce champ est obligatoire' });
    expect((await reject(admin, { reference, reason: 'Non' })).statusCode).toBe(403);
    expect((await reject(payer, { reference, reason: 'Non' })).statusCode).toBe(403);

    const balance = (await walletState(app, payer.walletId)).balance;
    const first = await reject(superAdmin, { reference, reason: 'Aucun virement reçu' }, 'rej-1');
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toEqual({
      reference,
      status: 'FAILED',
      amount: 75_000,
      paymentMethod: 'BANK',
      walletId: payer.walletId,
      credited: false,
    });
    // The same request again, or another key: the same answer, no second event, no second mail.
    expect(
      (await reject(superAdmin, { reference, reason: 'Aucun virement reçu' }, 'rej-1')).statusCode,
    ).toBe(200);
    expect((await reject(superAdmin, { reference, reason: 'Autre motif' })).json()).toMatchObject({
      status: 'FAILED',
    });
    expect((await walletState(app, payer.walletId)).balance).toBe(balance);
    const mails = await outbox(reference);
    expect(mails).toHaveLength(1);
    expect(mails[0]).toMatchObject({ subject: 'Filière : approvisionnement rejeté' });
    expect(mails[0]!.text).toContain('Motif : Aucun virement reçu');
    expect(mails[0]!.text).toContain('75\u202f000 F CFA');
    const email = await testDb.db
      .selectFrom('users')
      .select('email')
      .where('id', '=', payer.id)
      .executeTakeFirstOrThrow();
    expect(mails[0]!.recipient).toBe(email.email);

    const row = await listed(payer, `/api/supply/bank/${payer.id}`, reference);
    expect(row).toMatchObject({
      status: 'FAILED',
      failureCode: 'REJECTED',
      failureReason: 'Aucun virement reçu',
    });
  });

  it('validating a rejected supply and rejecting a validated one are refused (422, French)', async () => {
    const rejected = await bankSupply(5_000);
    await reject(superAdmin, { reference: rejected, reason: 'Montant différent' });
    const validateRejected = await validate(rejected);
    expect(validateRejected.statusCode).toBe(422);
    expect(validateRejected.json().message).toBe(
      'Cet approvisionnement a été rejeté : il ne peut plus être validé',
    );

    const validated = await bankSupply(6_000);
    expect((await validate(validated)).statusCode).toBe(200);
    const rejectValidated = await reject(superAdmin, { reference: validated, reason: 'Erreur' });
    expect(rejectValidated.statusCode).toBe(422);
    expect(rejectValidated.json().message).toBe(
      'Cet approvisionnement a déjà été validé : il ne peut plus être rejeté',
    );
    expect((await supplyState(app, validated)).status).toBe('SUCCESS');

    const { reference: mobile } = await momo();
    const rejectMobile = await reject(superAdmin, { reference: mobile, reason: 'Non' });
    expect(rejectMobile.statusCode).toBe(422);
    expect((await reject(superAdmin, { reference: 'APP-UNKNOWN', reason: 'Non' })).statusCode).toBe(
      404,
    );
  });

  it('a grower cannot reach the new routes (403), nor anyone anonymous (401)', async () => {
    const { id } = await seedUser(testDb.db, 'ROLE_GROWER');
    const grower: TestUser = {
      ...payer,
      id,
      role: 'ROLE_GROWER',
      headers: bearer(app, { id }, 'ROLE_GROWER'),
    };
    expect((await widget(grower, 'APP-X')).statusCode).toBe(403);
    expect((await cancel(grower, 'APP-X')).statusCode).toBe(403);
    const anonymous = { 'idempotency-key': 'k' };
    for (const [method, url] of [
      ['POST', '/api/supply/cancel/APP-X'],
      ['GET', '/api/supply/widget/APP-X'],
      ['POST', '/api/supply/reject-bank-supply'],
    ] as const) {
      const res = await app.inject({
        method,
        url,
        headers: anonymous,
        payload: method === 'POST' ? { reference: 'APP-X', reason: 'x' } : undefined,
      });
      expect(res.statusCode, url).toBe(401);
    }
  });
});
