import { Alert, Button, Group, Skeleton, Stack, Tabs } from '@mantine/core';
import { IconArrowLeft, IconCircleCheck } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useErrorText } from '../../../../shared/api/use-error-text.js';
import { useCurrentUser } from '../../../../shared/auth/current-user.js';
import { useRealtime } from '../../../../shared/realtime/use-realtime.js';
import { PageTitle } from '../../../../shared/ui/PageTitle.js';
import { StatusBadge } from '../../../../shared/ui/StatusBadge.js';
import { seasonLinkQuery, seasonQuery } from '../../model/index.js';
import { SeasonProvidersTab } from '../../inputs/index.js';
import { SeasonRequestsTab } from '../../requests/index.js';
import { SeasonAcceptance } from './SeasonAcceptance.js';
import { SeasonDetailsTab } from './SeasonDetailsTab.js';
import type { SeasonTab } from '../model/tabs.js';

/**
 * The industrial's season (spec §2.2; /dashboard/industriel/saison/{id}): 'Retour', the
 * season's name, its link's status, 'Accepter la saison' unless CONFIRMED, and the tabs
 * 'Détails de la saison', 'Demandes' and "Fournisseur d'intrants" (which asks to accept
 * first while the season is not CONFIRMED).
 */
export function IndustrialSeasonPage({
  seasonId,
  tab,
  onTabChange,
}: {
  seasonId: number;
  tab: SeasonTab;
  onTabChange: (tab: SeasonTab) => void;
}) {
  const { t } = useTranslation('seasonInvitations');
  const errorText = useErrorText();
  useRealtime();
  const me = useCurrentUser();
  const season = useQuery(seasonQuery(seasonId));
  const link = useQuery(seasonLinkQuery(seasonId, me?.id ?? ''));
  const [accepting, setAccepting] = useState(false);

  const back = (
    <Button
      variant="subtle"
      leftSection={<IconArrowLeft size={16} aria-hidden />}
      renderRoot={(props) => <Link {...props} to="/dashboard/industriel/saisons" />}
      mb="sm"
      px={0}
    >
      {t('detail.back')}
    </Button>
  );
  const failed = season.error ?? link.error;
  if (failed || !season.data || !link.data) {
    return (
      <>
        {back}
        {failed ? (
          <Alert color="red" role="alert">
            {errorText(failed)}
          </Alert>
        ) : (
          <Stack aria-busy="true" aria-label={t('detail.loading')}>
            <Skeleton h={32} w="40%" />
            <Skeleton h={200} />
          </Stack>
        )}
      </>
    );
  }
  const confirmed = link.data.status === 'CONFIRMED';
  return (
    <>
      {back}
      <Group justify="space-between" align="flex-start">
        <Group gap="sm" align="center">
          <PageTitle>{season.data.label}</PageTitle>
          <div style={{ marginBottom: 'var(--mantine-spacing-lg)' }}>
            <StatusBadge
              status={link.data.status}
              label={t(`statuses.${link.data.status}`, link.data.status)}
            />
          </div>
        </Group>
        {!confirmed && (
          <Button
            leftSection={<IconCircleCheck size={16} aria-hidden />}
            onClick={() => setAccepting(true)}
          >
            {t('detail.accept')}
          </Button>
        )}
      </Group>
      <Tabs
        value={tab}
        onChange={(next) => next && onTabChange(next as SeasonTab)}
        keepMounted={false}
      >
        <Tabs.List>
          <Tabs.Tab value="details">{t('detail.tabs.details')}</Tabs.Tab>
          <Tabs.Tab value="requests">{t('detail.tabs.requests')}</Tabs.Tab>
          <Tabs.Tab value="providers">{t('detail.tabs.providers')}</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="details" pt="md">
          <SeasonDetailsTab season={season.data} link={link.data} />
        </Tabs.Panel>
        <Tabs.Panel value="requests" pt="md">
          <SeasonRequestsTab seasonId={seasonId} industrialUserId={link.data.userId} />
        </Tabs.Panel>
        <Tabs.Panel value="providers" pt="md">
          {/* Until the season is CONFIRMED it shows only 'Veuillez accepter la saison avant…'. */}
          <SeasonProvidersTab
            seasonId={seasonId}
            linkId={link.data.linkId}
            linkStatus={link.data.status}
          />
        </Tabs.Panel>
      </Tabs>
      <SeasonAcceptance
        seasonId={accepting ? seasonId : null}
        onClose={() => setAccepting(false)}
      />
    </>
  );
}
