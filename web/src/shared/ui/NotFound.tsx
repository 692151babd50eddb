import { Button, Center, Stack, Text, Title } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';

/** An address the app has no screen for: said in French, with a way home. */
export function NotFound() {
  const { t } = useTranslation();
  return (
    <Center component="main" mih="60vh" p="lg">
      <Stack w="100%" maw={460} align="center">
        <Title order={1} size="h3">
          {t('notFound.title')}
        </Title>
        <Text c="dimmed">{t('notFound.text')}</Text>
        <Button component={Link} to="/">
          {t('notFound.home')}
        </Button>
      </Stack>
    </Center>
  );
}
