import { List, ThemeIcon, Text } from '@mantine/core';
import { IconCheck, IconX } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { PASSWORD_RULES } from '../validation/rules.js';

/** The live checklist of the password rules (spec: 'Une lettre majuscule', …). */
export function PasswordChecklist({ value }: { value: string }) {
  const { t } = useTranslation('validation');
  return (
    <List spacing={4} size="sm" aria-live="polite" data-testid="password-checklist">
      {PASSWORD_RULES.map((rule) => {
        const ok = rule.test(value);
        return (
          <List.Item
            key={rule.key}
            data-ok={ok}
            icon={
              <ThemeIcon color={ok ? 'teal' : 'gray'} size={18} radius="xl" aria-hidden>
                {ok ? <IconCheck size={12} /> : <IconX size={12} />}
              </ThemeIcon>
            }
          >
            <Text size="sm" c={ok ? 'teal.9' : 'dark.6'}>
              {t(`rules.${rule.key}`)}
              <span className="visually-hidden"> ({t(ok ? 'ruleMet' : 'ruleUnmet')})</span>
            </Text>
          </List.Item>
        );
      })}
    </List>
  );
}
