import { useTranslation } from 'react-i18next';
import { errorMessageKey, type ErrorContext } from './error-message.js';

/** Translates an error through the catalogue (server messages pass through unchanged). */
export function useErrorText(): (error: unknown, context?: ErrorContext) => string {
  const { t } = useTranslation();
  return (error, context) => {
    const key = errorMessageKey(error, context);
    return key.startsWith('errors:') ? t(key) : key;
  };
}
