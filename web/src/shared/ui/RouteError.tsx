import { Button, Center, Stack } from '@mantine/core';
import { useRouter, type ErrorComponentProps } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { useErrorText } from '../api/use-error-text.js';
import { FormAlert } from './FormAlert.js';

/**
 * A screen that could not load (server unreachable or slow, server error): the catalogue's
 * French message and 'Réessayer', which loads it again. The session is kept.
 */
export function RouteError({ error }: ErrorComponentProps) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const router = useRouter();
  return (
    <Center component="main" mih="100vh" p="lg" bg="gray.0">
      <Stack w="100%" maw={460}>
        <FormAlert message={errorText(error)} />
        <Button onClick={() => void router.invalidate()}>{t('retry')}</Button>
      </Stack>
    </Center>
  );
}
