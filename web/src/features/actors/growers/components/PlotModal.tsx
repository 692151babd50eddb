import { Button, Group, Stack } from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useErrorText } from '../../../../shared/api/use-error-text.js';
import { AppModal } from '../../../../shared/ui/AppModal.js';
import { notify } from '../../../../shared/ui/notify.js';
import { addPlot, growerKeys, updatePlot, type Plot } from '../api/growers.js';
import {
  emptyPlot,
  plotSchema,
  toPlotForm,
  toPlotInput,
  type PlotFormValues,
} from '../model/grower-form.js';
import { PlotFields } from './PlotFields.js';

/**
 * 'Ajouter une parcelle' (`POST product`) or 'Modifier la parcelle' (`PATCH product/{id}`)
 * on the grower's page; a failure shows the server's message as a toast (spec §8).
 * Mounted per plot (keyed), so its form starts from that plot's values.
 */
export function PlotModal({
  growerId,
  plot,
  onClose,
}: {
  growerId: string;
  plot: Plot | 'new';
  onClose: () => void;
}) {
  const { t } = useTranslation('growers');
  const errorText = useErrorText();
  const queryClient = useQueryClient();
  const isNew = plot === 'new';
  const form = useForm<PlotFormValues>({
    resolver: zodResolver(plotSchema),
    mode: 'onChange',
    defaultValues: isNew ? emptyPlot : toPlotForm(plot),
  });
  const save = useMutation({
    mutationFn: (values: PlotFormValues) =>
      isNew ? addPlot(growerId, toPlotInput(values)) : updatePlot(plot.id, toPlotInput(values)),
    onSuccess: async () => {
      notify('success', t(isNew ? 'plot.added' : 'plot.updated'));
      await queryClient.invalidateQueries({ queryKey: growerKeys.all });
      onClose();
    },
    onError: (error) => notify('error', errorText(error)),
  });
  const title = t(isNew ? 'plot.addTitle' : 'plot.editTitle');
  return (
    <AppModal opened onClose={onClose} title={title} size={720}>
      <form noValidate onSubmit={form.handleSubmit((v) => save.mutate(v))}>
        <Stack>
          <PlotFields control={form.control} prefix="" />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('common:cancel')}
            </Button>
            <Button
              type="submit"
              disabled={!form.formState.isValid || save.isPending}
              loading={save.isPending}
            >
              {t('common:save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </AppModal>
  );
}
