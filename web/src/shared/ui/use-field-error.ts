import type { FieldError } from 'react-hook-form';
import { useTranslation } from 'react-i18next';

/**
 * Translates a zod message key of a form field ('validation:required' …). A message that is
 * no key (a library's English text) shows as 'Entré non valide', never as it is.
 */
export function useFieldError(): (error: FieldError | undefined) => string | undefined {
  const { t, i18n } = useTranslation();
  return (error) => {
    if (!error?.message) return undefined;
    return i18n.exists(error.message) ? t(error.message) : t('validation:invalid');
  };
}
