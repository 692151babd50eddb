import { runAdminCreate } from './admin-create-run.js';

/**
 * `npm run admin:create -- --email a@b.bj --firstname … --lastname … [--phone …]`: the first
 * super admin of a fresh database (admin-create-run.ts). Prints one line; exits 0 when
 * created, 1 otherwise (bad arguments, e-mail taken, mail not sent), 2 when the database
 * cannot be opened.
 */
process.exit(
  await runAdminCreate(process.argv.slice(2), process.env, {
    out: (line) => process.stdout.write(`${line}\n`),
    err: (line) => process.stderr.write(`${line}\n`),
  }),
);
