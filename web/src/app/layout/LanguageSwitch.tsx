import { Menu, SegmentedControl } from '@mantine/core';
import { IconCheck, IconLanguage } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { changeLanguage, LANGUAGES, type Language } from '../../shared/i18n/index.js';

/** The language in use: i18next may report a region ('fr-FR') or a fallback list. */
function currentLanguage(language: string | undefined): Language {
  const base = (language ?? '').slice(0, 2) as Language;
  return LANGUAGES.includes(base) ? base : 'fr';
}

/** Français / English on the auth pages, remembered in localStorage. */
export function LanguageSwitch() {
  const { t, i18n } = useTranslation();
  return (
    <SegmentedControl
      size="xs"
      aria-label={t('language')}
      value={currentLanguage(i18n.resolvedLanguage ?? i18n.language)}
      onChange={(lng) => void changeLanguage(lng as Language)}
      data={LANGUAGES.map((lng) => ({ value: lng, label: lng.toUpperCase() }))}
    />
  );
}

/**
 * The language entries of the profile menu, remembered for the signed-in user: the one in use
 * carries a tick, bold text and `aria-current` (Mantine's items are `menuitem`s, which take no
 * `aria-checked`).
 */
export function LanguageMenuItems({ userId }: { userId: string }) {
  const { t, i18n } = useTranslation();
  const current = currentLanguage(i18n.resolvedLanguage ?? i18n.language);
  return (
    <>
      <Menu.Label>{t('common:language')}</Menu.Label>
      {LANGUAGES.map((lng) => (
        <Menu.Item
          key={lng}
          lang={lng}
          aria-current={current === lng ? 'true' : undefined}
          leftSection={<IconLanguage size={16} aria-hidden />}
          rightSection={
            current === lng ? <IconCheck size={16} aria-hidden data-testid="lang-current" /> : null
          }
          fw={current === lng ? 600 : undefined}
          data-testid={`lang-${lng}`}
          onClick={() => void changeLanguage(lng, userId)}
        >
          {t(`common:languages.${lng}`)}
        </Menu.Item>
      ))}
    </>
  );
}
