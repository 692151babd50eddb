import { ConflictError, ForbiddenError, ValidationError } from '@filiere/platform';

export const userAlreadyExists = () =>
  new ConflictError('Ce utilisateur existe déjà', { reason: 'USER_ALREADY_EXIST' });

export const invalidToken = () =>
  new ForbiddenError("Le token est invalide.Contactez l'administrateur.");

export const forbidden = () => new ForbiddenError('Vous n’avez pas accès à cette ressource');

export const fieldError = (field: string, message: string) =>
  new ValidationError(`${field}: ${message}`, { fields: { [field]: message } });

/** PostgreSQL unique violation on the users' e-mail index. */
export function isDuplicateEmail(error: unknown): boolean {
  const e = error as { code?: string; constraint?: string };
  return e?.code === '23505' && e.constraint === 'users_email_unique';
}
