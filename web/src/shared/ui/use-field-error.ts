import type { FieldError } from 'react-hook-form';
import { useTranslation } from 'react-i18next';

/** Translates a zod message key of a form field ('validation:required' …). */
export function useFieldError(): (error: FieldError | undefined) => string | undefined {
  const { t } = useTranslation();
  return (error) => (error?.message ? t(error.message) : undefined);
}
