import { ActionIcon, Button, Group, Indicator, Popover, Stack, Text } from '@mantine/core';
import { IconBell } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCurrentUser } from '../../../../shared/auth/current-user.js';
import { ROLES } from '../../../../shared/auth/roles.js';
import { useRealtime } from '../../../../shared/realtime/use-realtime.js';
import { formatDay, seasonInvitationsQuery } from '../../model/index.js';
import { SeasonAcceptance } from './SeasonAcceptance.js';

/**
 * The bell of the shell (spec §2.3): for an industrial only, its open invitations
 * (`GET seasons/invitations`), loaded at start and refreshed live by the
 * `seasons.invitation` push (no reload); a count badge and, for each, 'Vous avez été ajouté
 * à la saison {label}' with 'Voir détails', which opens the acceptance flow. Other roles see
 * nothing.
 */
export function InvitationBell() {
  const me = useCurrentUser();
  if (me?.role?.code !== ROLES.INDUSTRIAL) return null;
  return <IndustrialBell />;
}

function IndustrialBell() {
  const { t } = useTranslation('seasonInvitations');
  useRealtime();
  const invitations = useQuery(seasonInvitationsQuery);
  const [opened, setOpened] = useState(false);
  const [accepting, setAccepting] = useState<number | null>(null);
  const rows = invitations.data?.data ?? [];
  const count = rows.length;
  return (
    <Group justify="flex-end" mb="xs" data-testid="shell-bar">
      <Indicator
        label={<span data-testid="invitation-count">{count}</span>}
        disabled={count === 0}
        color="red"
        size={18}
        offset={6}
      >
        <Popover
          opened={opened}
          onChange={setOpened}
          position="bottom-end"
          width={360}
          shadow="md"
          trapFocus
          returnFocus
          withinPortal
        >
          <Popover.Target>
            {/* xl: 44 px, a thumb's target on a phone (lg is 34). */}
            <ActionIcon
              variant="default"
              size="xl"
              radius="xl"
              onClick={() => setOpened((o) => !o)}
              aria-label={count ? t('bell.labelCount', { count }) : t('bell.label')}
              data-testid="invitation-bell"
            >
              <IconBell size={20} aria-hidden />
            </ActionIcon>
          </Popover.Target>
          <Popover.Dropdown aria-label={t('bell.title')}>
            <Text fw={700} mb="sm">
              {t('bell.title')}
            </Text>
            {count === 0 ? (
              <Text size="sm" c="dimmed">
                {t('bell.empty')}
              </Text>
            ) : (
              <Stack component="ul" gap="sm" p={0} m={0} style={{ listStyle: 'none' }}>
                {rows.map((invitation) => (
                  <li key={invitation.linkId}>
                    <Text size="sm">{t('bell.added', { label: invitation.label })}</Text>
                    <Group justify="space-between" align="center" mt={4}>
                      <Text size="xs" c="dark.4">
                        {t('bell.expires', { date: formatDay(invitation.expiresAt) })}
                      </Text>
                      <Button
                        size="compact-sm"
                        variant="light"
                        aria-label={t('bell.viewDetailsOf', { label: invitation.label })}
                        onClick={() => {
                          setOpened(false);
                          setAccepting(invitation.seasonId);
                        }}
                      >
                        {t('bell.viewDetails')}
                      </Button>
                    </Group>
                  </li>
                ))}
              </Stack>
            )}
          </Popover.Dropdown>
        </Popover>
      </Indicator>
      <SeasonAcceptance seasonId={accepting} onClose={() => setAccepting(null)} />
    </Group>
  );
}
