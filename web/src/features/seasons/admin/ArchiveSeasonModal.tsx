import { Button, Group, Stack, Text } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useErrorText } from '../../../shared/api/use-error-text.js';
import { AppModal } from '../../../shared/ui/AppModal.js';
import { notify } from '../../../shared/ui/notify.js';
import { archiveSeason, seasonKeys, type SeasonSummary } from '../model/index.js';

/**
 * 'Êtes-vous sur de vouloir archiver cette saison ?' (spec §2.1): 'Oui, archiver' archives
 * (`DELETE clusters/{id}`, 'Campagne archivée avec succès'); a refusal is the server's message
 * as a warning toast (spec §8).
 */
export function ArchiveSeasonModal({
  season,
  onClose,
}: {
  season: SeasonSummary | null;
  onClose: () => void;
}) {
  const { t } = useTranslation('seasons');
  const errorText = useErrorText();
  const queryClient = useQueryClient();
  const mutation = useMutation({
    mutationFn: (s: SeasonSummary) => archiveSeason(s.id),
    onSuccess: async () => {
      notify('success', t('archived'));
      await queryClient.invalidateQueries({ queryKey: seasonKeys.all });
      onClose();
    },
    onError: (error) => notify('error', errorText(error)),
  });
  return (
    <AppModal opened={season !== null} onClose={onClose} title={t('archiveModal.title')}>
      <Stack>
        <Text>{t('archiveModal.text')}</Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('common:cancel')}
          </Button>
          <Button
            color="red"
            loading={mutation.isPending}
            onClick={() => season && mutation.mutate(season)}
          >
            {t('archiveModal.confirm')}
          </Button>
        </Group>
      </Stack>
    </AppModal>
  );
}
