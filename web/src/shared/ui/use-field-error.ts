import type { FieldError } from 'react-hook-form';
import { useTranslation } from 'react-i18next';

/**
 * Translates a zod message key of a form field ('validation:required' …), with the values its
 * text names (`{max}` of a ceiling). A message that is no key (a library's English text) shows
 * as 'Entré non valide', never as it is.
 */
export function useFieldError(): (
  error: FieldError | undefined,
  values?: Record<string, string>,
) => string | undefined {
  const { t, i18n } = useTranslation();
  return (error, values) => {
    if (!error?.message) return undefined;
    return i18n.exists(error.message) ? t(error.message, values) : t('validation:invalid');
  };
}
