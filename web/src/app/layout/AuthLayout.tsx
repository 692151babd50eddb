import { Box, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { Outlet } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { LanguageSwitch } from './LanguageSwitch.js';

/** Auth layout: a brand panel beside the form. */
export function AuthLayout() {
  const { t } = useTranslation('auth');
  return (
    <Group gap={0} align="stretch" wrap="nowrap" mih="100vh">
      <Box
        visibleFrom="md"
        w="42%"
        p={48}
        style={{
          background:
            'radial-gradient(circle at 30% 20%, #f4c430 0, #f4c430 60px, transparent 61px), linear-gradient(160deg, #1b5e20 0%, #2e7d32 55%, #f9a825 140%)',
          color: 'white',
        }}
      >
        <Stack justify="flex-end" h="100%">
          <Text fw={800} fz={40} c="white">
            {t('common:appName')}
          </Text>
          <Text fz="lg" c="white">
            {t('tagline')}
          </Text>
        </Stack>
      </Box>
      <Stack component="main" flex={1} p="lg" justify="center" align="center" bg="gray.0">
        <Group w="100%" maw={460} justify="space-between">
          <Title order={2} size="h3" hiddenFrom="md" c="leaf.9">
            {t('common:appName')}
          </Title>
          <Box ml="auto">
            <LanguageSwitch />
          </Box>
        </Group>
        <Paper w="100%" maw={460} p="xl" radius="lg" shadow="sm" withBorder>
          <Outlet />
        </Paper>
      </Stack>
    </Group>
  );
}
