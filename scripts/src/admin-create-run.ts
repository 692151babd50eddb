import { existsSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import {
  ConfigError,
  ConflictError,
  createDb,
  createLogger,
  migrateToLatest,
  parseConfig,
  runningPostmaster,
  startEmbeddedPostgres,
  withDatabase,
  type Config,
} from '@filiere/platform';
import type { Database } from '@filiere/api';
// Identity's own services, wired as the API wires them (identityServices): the account, its
// UserRegistered audit event and its invitation are made exactly as POST
// /api/users/invitation/signup?typeUser=user makes them (no SQL here).
import {
  createMailer,
  email,
  identityServices,
  phone,
  text,
  TOKEN_TTL_MS,
  type Mail,
  type Mailer,
  type SignupBody,
  type UserRow,
} from '@filiere/api/identity';
import { requireEmptyWallet } from '@filiere/api/wallet';

/**
 * `npm run admin:create -- --email a@b.bj --firstname … --lastname … [--phone …]`: the first
 * super admin of a fresh (production) database, where no one can sign in to create it. An
 * active ROLE_SUPER_ADMIN with its wallet, made by identity's UsersService as an admin's
 * "create user" makes it, and the invitation mail with its set-password link
 * (/auth/signup-invitation?t=…&r=…, 48 h, single use) sent to that address.
 *
 * The link is mailed, never printed, whenever mail can be sent (SMTP_URL; required under
 * NODE_ENV=production): whoever holds it takes the most powerful account, and a terminal's
 * scrollback, a shell history or `docker compose` logs are read by more people than the
 * mailbox of the person named. Without SMTP_URL, outside production, the mail goes to the
 * outbox table as every mail of that mode does, and the line shows the link as the log would.
 *
 * Prints one line; exits 0 when created, 1 otherwise (bad arguments, e-mail taken, mail not
 * sent), 2 when the database cannot be opened.
 */
const USAGE = 'npm run admin:create -- --email … --firstname … --lastname … [--phone …]';

const inputSchema = z.object({
  email,
  firstname: text(),
  lastname: text(),
  phone: phone.optional(),
});

/**
 * The operator at the console acts as a super admin, the only role that may give
 * ROLE_SUPER_ADMIN; createInternal reads no more of its actor than who it is (partyOf). Its
 * nil id is no user's: the audit trail shows the account registered by no one (the console).
 */
const CONSOLE_OPERATOR = {
  id: '00000000-0000-0000-0000-000000000000',
  role_code: 'ROLE_SUPER_ADMIN',
  cluster_id: null,
} as UserRow;

class Refused extends Error {
  constructor(
    message: string,
    readonly code = 1,
  ) {
    super(message);
  }
}

/** Where the command's line goes: `out` for the result, `err` for a refusal or a failure. */
export interface AdminCreateOutput {
  out(line: string): void;
  err(line: string): void;
}

/**
 * The command with its arguments and environment (`npm run admin:create` passes its own):
 * writes its one line and returns the exit code; never throws.
 */
export async function runAdminCreate(
  args: string[],
  env: NodeJS.ProcessEnv,
  output: AdminCreateOutput,
): Promise<number> {
  try {
    return await adminCreate(args, env, output.out);
  } catch (error) {
    if (error instanceof Refused) {
      output.err(error.message);
      return error.code;
    }
    output.err(`admin:create : ${error instanceof Error ? error.message : error}`);
    return 1;
  }
}

async function adminCreate(
  args: string[],
  env: NodeJS.ProcessEnv,
  print: (line: string) => void,
): Promise<number> {
  let config: Config;
  try {
    config = parseConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) throw new Refused(error.message);
    throw error;
  }
  const input = parseInput(args);
  if (config.NODE_ENV === 'production' && !config.SMTP_URL) {
    throw new Refused(
      'Invalid configuration: SMTP_URL is required by admin:create when NODE_ENV=production' +
        ' (the set-password link is only sent by e-mail)',
    );
  }

  const database = await openDatabase(config);
  try {
    // The product (every context, Fastify) is loaded once the arguments, the configuration
    // and the database are known to be good: a refusal before this point is said at once.
    const { allMigrations } = await import('@filiere/api');
    await migrateToLatest(database.db, allMigrations);
    return await create(database.db, config, input, print);
  } finally {
    await database.close();
  }
}

function parseInput(args: string[]): z.infer<typeof inputSchema> {
  let values: Record<string, string | undefined>;
  try {
    values = parseArgs({
      args,
      options: {
        email: { type: 'string' },
        firstname: { type: 'string' },
        lastname: { type: 'string' },
        phone: { type: 'string' },
      },
      strict: true,
      allowPositionals: false,
    }).values;
  } catch (error) {
    throw new Refused(`admin:create : ${(error as Error).message} (usage : ${USAGE})`);
  }
  const parsed = inputSchema.safeParse(values);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new Refused(
      `admin:create : --${String(issue.path[0])} : ${issue.message} (usage : ${USAGE})`,
    );
  }
  return parsed.data;
}

async function create(
  db: Kysely<Database>,
  config: Config,
  input: z.infer<typeof inputSchema>,
  print: (line: string) => void,
): Promise<number> {
  const refuseTaken = () =>
    new Refused(
      `admin:create : un compte existe déjà avec l’adresse ${input.email} ; rien n’a été créé.`,
    );

  const logger = createLogger('silent', false);
  const mailer: Mailer = createMailer(config, db, logger);
  // AuthService logs a failed send and keeps the account (as the API does); we must say it.
  let sent: Mail | undefined;
  let failure: unknown;
  const watched: Mailer = {
    async send(mail) {
      try {
        await mailer.send(mail);
        sent = mail;
      } catch (error) {
        failure = error;
        throw error;
      }
    },
  };
  // The API itself (command pipeline with identity's streams, JWT, websocket hub), not
  // listening: the services below take from it what registerIdentity gives them.
  const { buildApp } = await import('@filiere/api');
  const app = await buildApp({ config, db, logger });
  try {
    const { repo, users } = identityServices({
      db,
      config,
      logger,
      mailer: watched,
      commands: app.commands,
      sign: (claims) => app.jwt.sign(claims),
      accessChanged: (userIds) => app.accessChanged(userIds),
      userDeletionCheck: requireEmptyWallet,
    });
    if (await repo.findByEmail(input.email)) throw refuseTaken();
    await users.createInternal(CONSOLE_OPERATOR, {
      email: input.email,
      firstname: input.firstname,
      lastname: input.lastname,
      // The API requires a phone; without --phone the account has none (null, as in its event).
      phone: input.phone ?? null,
      roleCode: 'ROLE_SUPER_ADMIN',
    } as unknown as SignupBody);
  } catch (error) {
    if (error instanceof ConflictError) throw refuseTaken();
    throw error;
  } finally {
    await app.close();
    await mailer.close?.();
  }

  const who = `${input.firstname} ${input.lastname} <${input.email}>`;
  const hours = TOKEN_TTL_MS.INVITATION / 3_600_000;
  if (!sent) {
    const reason = failure instanceof Error ? failure.message : String(failure);
    throw new Refused(
      `admin:create : le compte ${who} est créé, mais le mail n’a pas pu être envoyé (${reason}) ;` +
        ` corrigez SMTP_URL puis demandez un nouveau lien : POST ${config.PUBLIC_URL}/api/users/invitation/resend` +
        ` {"email":"${input.email}"}`,
    );
  }
  print(
    config.SMTP_URL
      ? `Super administrateur créé : ${who} ; le lien pour définir son mot de passe` +
          ` (valable ${hours} heures) lui a été envoyé par e-mail.`
      : `Super administrateur créé : ${who} ; sans SMTP_URL, le mail est dans la table outbox.` +
          ` Lien pour définir son mot de passe (valable ${hours} heures) : ${sent.link}`,
  );
  return 0;
}

interface OpenDatabase {
  db: Kysely<Database>;
  close(): Promise<void>;
}

/**
 * DATABASE_URL; else the embedded PostgreSQL of $DATA_DIR/postgres: the one `npm start` runs,
 * or, when it is not running, started for this command and stopped after.
 */
async function openDatabase(config: Config): Promise<OpenDatabase> {
  const options = { max: 2, applicationName: 'filiere-admin-create' };
  if (config.DATABASE_URL) {
    const db = createDb<Database>(config.DATABASE_URL, options);
    return { db, close: () => db.destroy() };
  }
  const dataDir = path.resolve(config.DATA_DIR, 'postgres');
  if (!existsSync(path.join(dataDir, 'PG_VERSION'))) {
    throw new Refused(
      `admin:create : pas de base embarquée dans ${dataDir} : lancez "npm start" une fois,` +
        ' ou définissez DATABASE_URL.',
      2,
    );
  }
  const running = runningPostmaster(dataDir);
  if (running) {
    const db = createDb<Database>(withDatabase(running.url, 'postgres'), options);
    return { db, close: () => db.destroy() };
  }
  const postgres = await startEmbeddedPostgres({ dataDir });
  const db = createDb<Database>(withDatabase(postgres.url, 'postgres'), options);
  return {
    db,
    async close() {
      await db.destroy();
      await postgres.stop();
    },
  };
}
