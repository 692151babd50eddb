import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import { setDateLocale } from '../format/date.js';
import { LANGUAGE_KEY, LANGUAGES, resources, type Language } from './resources.js';

export { LANGUAGES, type Language } from './resources.js';

function storedLanguage(): Language {
  const saved = localStorage.getItem(LANGUAGE_KEY);
  return (LANGUAGES as readonly string[]).includes(saved ?? '') ? (saved as Language) : 'fr';
}

/** French by default; the choice made in the profile menu is remembered in localStorage. */
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

export async function changeLanguage(lng: Language): Promise<void> {
  localStorage.setItem(LANGUAGE_KEY, lng);
  await i18n.changeLanguage(lng);
  applyLanguage(lng);
}
