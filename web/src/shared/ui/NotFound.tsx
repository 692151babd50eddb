import { Button, Center, Group, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconArrowLeft, IconMapSearch } from '@tabler/icons-react';
import { Link, useRouter } from '@tanstack/react-router';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * An address the app has no screen for: 'Page introuvable', said in French, with a way back
 * (the previous page, when there is one) and home (the dashboard). Inside the main layout
 * (`NotFoundInLayout`: the `_app/$` catch-all) it sits in the layout's own `main`, beside the menu;
 * alone (the router's default) it is the page's `main`.
 */
function NotFoundView({ inLayout }: { inLayout: boolean }) {
  const { t } = useTranslation();
  const router = useRouter();
  const canGoBack = typeof window !== 'undefined' && window.history.length > 1;
  useEffect(() => {
    document.title = `${t('notFound.title')} · ${t('appName')}`;
  }, [t]);
  return (
    <Center component={inLayout ? 'div' : 'main'} mih="60vh" p="lg" data-testid="not-found">
      <Stack w="100%" maw={460} align="center" ta="center">
        <ThemeIcon size={64} radius="xl" variant="light" color="leaf" aria-hidden>
          <IconMapSearch size={36} />
        </ThemeIcon>
        <Title order={1} size="h3">
          {t('notFound.title')}
        </Title>
        <Text c="dark.5">{t('notFound.text')}</Text>
        <Group justify="center">
          {canGoBack && (
            <Button
              variant="default"
              leftSection={<IconArrowLeft size={16} aria-hidden />}
              onClick={() => router.history.back()}
            >
              {t('back')}
            </Button>
          )}
          <Button component={Link} to="/">
            {t('notFound.home')}
          </Button>
        </Group>
      </Stack>
    </Center>
  );
}

/** The router's default: the page's own `main`. */
export function NotFound() {
  return <NotFoundView inLayout={false} />;
}

/** Inside the main layout, whose `main` holds it. */
export function NotFoundInLayout() {
  return <NotFoundView inLayout />;
}
