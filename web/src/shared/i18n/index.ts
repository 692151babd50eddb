import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import { setDateLocale } from '../format/date.js';
import type { Bundle } from './bundles.js';
import { fr } from './fr.js';
import { LANGUAGE_KEY, LANGUAGES, type Language } from './languages.js';

export { LANGUAGES, type Language } from './languages.js';

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
  const resources: Record<string, Bundle> = { fr };
  if (lng !== 'fr') resources[lng] = await bundle(lng);
  await i18n.use(initReactI18next).init({
    resources,
    lng,
    fallbackLng: 'fr',
    defaultNS: 'common',
    ns: Object.keys(fr),
    interpolation: { escapeValue: false },
    returnNull: false,
  });
  applyLanguage(lng);
  return i18n;
}

/** A language other than French, fetched the first time the interface needs it. */
async function bundle(lng: Exclude<Language, 'fr'>): Promise<Bundle> {
  switch (lng) {
    case 'en':
      return (await import('./en.js')).en;
  }
}

async function load(lng: Language): Promise<void> {
  if (lng === 'fr' || i18n.hasResourceBundle(lng, 'common')) return;
  for (const [ns, texts] of Object.entries(await bundle(lng))) {
    i18n.addResourceBundle(lng, ns, texts);
  }
}

function applyLanguage(lng: Language): void {
  document.documentElement.lang = lng;
  setDateLocale(lng);
}

/** Switches the interface; `userId` (from the user menu) remembers it for that user too. */
export async function changeLanguage(lng: Language, userId?: string): Promise<void> {
  localStorage.setItem(LANGUAGE_KEY, lng);
  if (userId) localStorage.setItem(userLanguageKey(userId), lng);
  if (i18n.language !== lng) {
    await load(lng);
    await i18n.changeLanguage(lng);
  }
  applyLanguage(lng);
}

/** Once the signed-in user is known: the language it chose last on this browser, if any. */
export async function applyUserLanguage(userId: string): Promise<void> {
  const saved = localStorage.getItem(userLanguageKey(userId));
  if (isLanguage(saved) && saved !== i18n.language) await changeLanguage(saved);
}
