import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb, startEmbeddedPostgres, withDatabase } from '@filiere/platform';
import { useTestDatabase } from '@filiere/platform/testing';
import type { Database } from '@filiere/api';
import { startTestSmtp } from '../../services/api/src/identity/mail/test-smtp.js';
import { buildTestApp } from '../../services/api/src/test-app.js';
import { runAdminCreate } from './admin-create-run.js';

const root = path.resolve(import.meta.dirname, '../..');

/** A production environment parseConfig accepts (the provider is never called here). */
const PRODUCTION = {
  NODE_ENV: 'production',
  JWT_SECRET: 'admin-create-test-secret-0123456789abcdef',
  PAYMENT_PROVIDER: 'fedapay',
  FEDAPAY_BASE_URL: 'http://127.0.0.1:9',
  FEDAPAY_PUBLIC_KEY: 'pk_test',
  FEDAPAY_SECRET_KEY: 'sk_test',
  SUPPLY_BANK_NAME: 'Ecobank Bénin',
  SUPPLY_BANK_ACCOUNT: 'BJ0990100100000099999999',
  SMS_GATEWAY: 'twilio',
  TWILIO_BASE_URL: 'http://127.0.0.1:9',
  TWILIO_ACCOUNT_SID: `AC${'0'.repeat(32)}`,
  TWILIO_AUTH_TOKEN: 'admin-create-twilio-token',
  TWILIO_FROM: 'FILIERE',
  PUBLIC_URL: 'http://filiere.test',
  REDIS_URL: '',
  LOG_LEVEL: 'silent',
};

/** `npm run admin:create -- …args` as a process: its exit code and its output. */
async function adminCreateProcess(args: string[], env: Record<string, string>) {
  try {
    const { stdout, stderr } = await promisify(execFile)(
      process.execPath,
      ['scripts/run.mjs', 'scripts/src/admin-create.ts', ...args],
      { cwd: root, env: { ...process.env, ...env } },
    );
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

/**
 * The same command in this process (what the entry runs, minus the exit): its code and what it
 * wrote to each stream. A spawned command loads much of the API again (a few CPU-seconds); the
 * first test runs the real process, as `npm run admin:create` does, the others this.
 */
async function adminCreate(args: string[], env: Record<string, string>) {
  let stdout = '';
  let stderr = '';
  const code = await runAdminCreate(
    args,
    { ...process.env, ...env },
    { out: (line) => (stdout += `${line}\n`), err: (line) => (stderr += `${line}\n`) },
  );
  return { code, stdout, stderr };
}

describe('npm run admin:create', () => {
  const database = useTestDatabase<Database>();
  let smtp: Awaited<ReturnType<typeof startTestSmtp>>;
  let app: FastifyInstance;
  let ip = 0;
  const post = (url: string, payload: Record<string, unknown>, headers = {}) =>
    app.inject({ method: 'POST', url, payload, headers, remoteAddress: `10.9.0.${++ip}` });
  const usersNamed = async (email: string) =>
    database.db.selectFrom('users').selectAll().where('email', '=', email).execute();

  beforeAll(async () => {
    smtp = await startTestSmtp();
    app = await buildTestApp(database.db, { env: { PUBLIC_URL: 'http://filiere.test' } });
  });
  afterAll(async () => {
    await app?.close();
    await smtp?.close();
  });

  it('in production: an active super admin, the link mailed (not printed); they set a password, sign in, and act as one', async () => {
    const email = 'chef@exemple.bj';
    const run = await adminCreateProcess(
      ['--email', 'Chef@Exemple.bj', '--firstname', 'Sèna', '--lastname', 'Adjovi'].concat([
        '--phone',
        '97 00 00 01',
      ]),
      { ...PRODUCTION, DATABASE_URL: database.url, SMTP_URL: smtp.url },
    );
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout.trim().split('\n')).toEqual([
      'Super administrateur créé : Sèna Adjovi <chef@exemple.bj> ; le lien pour définir son mot' +
        ' de passe (valable 48 heures) lui a été envoyé par e-mail.',
    ]);

    const link = await smtp.linkTo(email, '/auth/signup-invitation');
    expect(link.origin).toBe('http://filiere.test');
    expect(link.searchParams.get('r')).toBe(email);
    const token = link.searchParams.get('t')!;
    expect(run.stdout).not.toContain(token);

    const set = await post('/api/users/validation/signup', {
      token,
      email,
      password: 'Ananas#2026',
      confirmPassword: 'Ananas#2026',
    });
    expect(set.statusCode).toBe(200);
    const login = await post('/api/auth/login', { email, password: 'Ananas#2026' });
    expect(login.statusCode).toBe(200);
    expect(login.json().user.role.code).toBe('ROLE_SUPER_ADMIN');
    const auth = { authorization: `Bearer ${login.json().access_token}` };

    // A super admin's powers: it creates another super admin through the API…
    const second = await post(
      '/api/users/invitation/signup?typeUser=user',
      {
        firstname: 'Rodrigue',
        lastname: 'Houénou',
        email: 'second@exemple.bj',
        phone: '97 00 00 02',
        roleCode: 'ROLE_SUPER_ADMIN',
      },
      auth,
    );
    expect(second.statusCode).toBe(201);
    // …and the one of admin:create looks exactly like it (but names, e-mail, ids, password).
    const [made] = await usersNamed(email);
    const [viaApi] = await usersNamed('second@exemple.bj');
    const shape = (row: Record<string, unknown>) => {
      const {
        id: _id,
        firstname: _f,
        lastname: _l,
        email: _e,
        username,
        phone,
        wallet_id: walletId,
        password_hash: _p,
        created_at: _c,
        updated_at: _u,
        token_version: _t, // setting a password revokes the tokens issued before
        ...rest
      } = row;
      return {
        ...rest,
        usernameIsEmail: username === row.email,
        phone: typeof phone,
        wallet: typeof walletId,
      };
    };
    expect(shape(made!)).toEqual(shape(viaApi!));
    // Its audit trail opens the same way (registered by no user: the console).
    const registered = async (id: string) => {
      const [first] = await app.eventStore.readStream(`user-${id}`);
      const {
        userId,
        actorId,
        email: _e,
        phone: _p,
        ...rest
      } = first!.data as Record<string, unknown>;
      return { type: first!.type, ...rest, ownStream: userId === id, actorId };
    };
    const byConsole = await registered(made!.id as string);
    const byApi = await registered(viaApi!.id as string);
    expect(byConsole).toEqual({ ...byApi, actorId: '00000000-0000-0000-0000-000000000000' });
    expect(byApi.actorId).toBe(made!.id);
    expect(made).toMatchObject({
      is_active: true,
      self_registered: false,
      phone: '+2290197000001',
    });
    const dto = await app.inject({ method: 'GET', url: `/api/users/${made!.id}`, headers: auth });
    expect(dto.statusCode).toBe(200);
    expect(dto.json()).toMatchObject({
      email,
      isActive: true,
      role: { code: 'ROLE_SUPER_ADMIN' },
      walletId: made!.wallet_id,
    });
  }, 120_000);

  it('refuses an e-mail that exists, in one line, creating and mailing nothing', async () => {
    const mails = smtp.messages.length;
    const run = await adminCreate(
      ['--email', 'CHEF@exemple.bj', '--firstname', 'Autre', '--lastname', 'Personne'],
      { ...PRODUCTION, DATABASE_URL: database.url, SMTP_URL: smtp.url },
    );
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr.trim().split('\n')).toEqual([
      'admin:create : un compte existe déjà avec l’adresse chef@exemple.bj ; rien n’a été créé.',
    ]);
    expect(await usersNamed('chef@exemple.bj')).toHaveLength(1);
    expect(smtp.messages.length).toBe(mails);
  }, 60_000);

  it('refuses production without SMTP_URL, and bad arguments, naming what is wrong', async () => {
    const noSmtp = await adminCreate(
      ['--email', 'nosmtp@exemple.bj', '--firstname', 'Awa', '--lastname', 'Dossou'],
      { ...PRODUCTION, DATABASE_URL: database.url, SMTP_URL: '' },
    );
    expect(noSmtp.code).toBe(1);
    expect(noSmtp.stderr.trim()).toMatch(
      /^Invalid configuration: SMTP_URL is required by admin:create when NODE_ENV=production/,
    );
    expect(await usersNamed('nosmtp@exemple.bj')).toHaveLength(0);

    const badEmail = await adminCreate(
      ['--email', 'pas-une-adresse', '--firstname', 'Awa', '--lastname', 'Dossou'],
      { ...PRODUCTION, DATABASE_URL: database.url, SMTP_URL: smtp.url },
    );
    expect(badEmail.code).toBe(1);
    expect(badEmail.stderr.trim()).toMatch(/^admin:create : --email : Adresse mail invalide/);
    const missing = await adminCreate(['--email', 'x@exemple.bj'], {
      ...PRODUCTION,
      DATABASE_URL: database.url,
      SMTP_URL: smtp.url,
    });
    expect(missing.stderr.trim()).toMatch(/^admin:create : --firstname : Ce champ est obligatoire/);
  }, 60_000);

  it('outside production without SMTP_URL: the mail goes to the outbox and the line shows its link', async () => {
    const email = 'dev.admin@exemple.bj';
    const run = await adminCreate(
      ['--email', email, '--firstname', 'Awa', '--lastname', 'Dossou'],
      {
        NODE_ENV: 'development',
        DATABASE_URL: database.url,
        REDIS_URL: '',
        SMTP_URL: '',
        PUBLIC_URL: 'http://filiere.test',
        LOG_LEVEL: 'silent',
      },
    );
    expect(run.code).toBe(0);
    const lines = run.stdout.trim().split('\n');
    expect(lines).toHaveLength(1);
    const link = new URL(
      /(http:\/\/filiere\.test\/auth\/signup-invitation\?\S+)$/.exec(lines[0]!)![1]!,
    );
    const outbox = await database.db
      .selectFrom('outbox')
      .select('text')
      .where('recipient', '=', email)
      .execute();
    expect(outbox).toHaveLength(1);
    expect(outbox[0]!.text).toContain(link.href);
    const [row] = await usersNamed(email);
    expect(row).toMatchObject({ is_active: true, phone: null, role_id: 1 });
  }, 60_000);

  it('without DATABASE_URL: uses the embedded PostgreSQL that npm start runs, or says there is none', async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'filiere-admin-'));
    const env = { ...PRODUCTION, DATABASE_URL: '', DATA_DIR: dataDir, SMTP_URL: smtp.url };
    try {
      const none = await adminCreate(
        ['--email', 'embedded@exemple.bj', '--firstname', 'Awa', '--lastname', 'Dossou'],
        env,
      );
      expect(none.code).toBe(2);
      expect(none.stderr).toMatch(/^admin:create : pas de base embarquée dans /);

      // As while npm start runs: the cluster of $DATA_DIR/postgres is up, held by this process.
      const postgres = await startEmbeddedPostgres({ dataDir: path.join(dataDir, 'postgres') });
      try {
        const run = await adminCreate(
          ['--email', 'embedded@exemple.bj', '--firstname', 'Awa', '--lastname', 'Dossou'],
          env,
        );
        expect(run.stderr).toBe('');
        expect(run.code).toBe(0);
        const db = createDb<Database>(withDatabase(postgres.url, 'postgres'), { max: 1 });
        const rows = await db
          .selectFrom('users')
          .select(['role_id', 'is_active'])
          .where('email', '=', 'embedded@exemple.bj')
          .execute();
        await db.destroy();
        expect(rows).toEqual([{ role_id: 1, is_active: true }]);
      } finally {
        await postgres.stop();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});
