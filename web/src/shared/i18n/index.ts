import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import { setDateLocale } from '../format/date.js';
import { LANGUAGE_KEY, LANGUAGES, resources, type Language } from './resources.js';

export { LANGUAGES, type Language } from './resources.js';

function isLanguage(value: string | null): value is Language {
  return (LANGUAGES as readonly string[]).includes(value ?? '');
}

function storedLanguage(): Language {
  const saved = localStorage.getItem(LANGUAGE_KEY);
  return isLanguage(saved) ? saved : 'fr';
}

/** Where a signed-in user's choice is kept: one key per user of this browser. */
export const userLanguageKey = (userId: string) => `${LANGUAGE_KEY}:${userId}`;

/**
 * French by default. The last choice made on this browser (`localStorage.lang`) opens the auth
 * pages; once signed in, the user's own choice (`lang:<user id>`) wins.
 */
export async function initI18n(): Promise<typeof i18n> {
  const lng = storedLanguage();
  await i18n.use(initReactI18next).init({
    resources,
    lng,
    fallbackLng: 'fr',
    defaultNS: 'common',
    ns: Object.keys(resources.fr),
    interpolation: { escapeValue: false },
    returnNull: false,
  });
  applyLanguage(lng);
  return i18n;
}

function applyLanguage(lng: Language): void {
  document.documentElement.lang = lng;
  setDateLocale(lng);
}

/** Switches the interface; `userId` (from the user menu) remembers it for that user too. */
export async function changeLanguage(lng: Language, userId?: string): Promise<void> {
  localStorage.setItem(LANGUAGE_KEY, lng);
  if (userId) localStorage.setItem(userLanguageKey(userId), lng);
  if (i18n.language !== lng) await i18n.changeLanguage(lng);
  applyLanguage(lng);
}

/** Once the signed-in user is known: the language it chose last on this browser, if any. */
export async function applyUserLanguage(userId: string): Promise<void> {
  const saved = localStorage.getItem(userLanguageKey(userId));
  if (isLanguage(saved) && saved !== i18n.language) await changeLanguage(saved);
}
