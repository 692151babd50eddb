import { Anchor, Button, Group, Select, Stack, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useIdempotencyKey } from '../../../shared/api/use-idempotency-key.js';
import { useErrorText } from '../../../shared/api/use-error-text.js';
import { groupThousands, parseMoney } from '../../../shared/format/money.js';
import { AppModal } from '../../../shared/ui/AppModal.js';
import { FormAlert } from '../../../shared/ui/FormAlert.js';
import { notify } from '../../../shared/ui/notify.js';
import { useFieldError } from '../../../shared/ui/use-field-error.js';
import {
  attachIndustrial,
  formatQuantity,
  industrialsSearchQuery,
  seasonAmountsQuery,
  seasonKeys,
  type SeasonAmounts,
} from '../model/index.js';
import { AmountCards } from './AmountCards.js';
import { quantitySchema, type QuantityValues } from './season-form.js';

type Step = 'SEARCH_INDUSTRIAL' | 'ADD_QUANTITY' | 'SHOW_DETAILS';

export interface ChosenIndustrial {
  id: string;
  name: string;
}

/**
 * 'Ajouter un agrégateur' (spec §2.7, §4): SEARCH_INDUSTRIAL (autocomplete over the active
 * aggregators, page 1 limit 20), ADD_QUANTITY (kg, required, numeric: 'Ajouter' asks the
 * server for the amounts), SHOW_DETAILS (the three cards; 'Valider' attaches). 'Modifier'
 * returns to a previous step. `edit`: an attached industrial whose quantity changes (its
 * PENDING invitation is sent again with the new quantity), starting at ADD_QUANTITY.
 */
export function AttachIndustrialModal({
  seasonId,
  opened,
  onClose,
  edit,
}: {
  seasonId: number;
  opened: boolean;
  onClose: () => void;
  edit?: { industrial: ChosenIndustrial; quantity: number };
}) {
  const { t } = useTranslation('seasons');
  const errorText = useErrorText();
  const fieldError = useFieldError();
  const queryClient = useQueryClient();
  const [step, setStep] = useState<Step>(edit ? 'ADD_QUANTITY' : 'SEARCH_INDUSTRIAL');
  const [industrial, setIndustrial] = useState<ChosenIndustrial | null>(edit?.industrial ?? null);
  const [amounts, setAmounts] = useState<SeasonAmounts | null>(null);
  const [q, setQ] = useState('');
  const [debouncedQ] = useDebouncedValue(q.trim(), 200);
  const options = useQuery({ ...industrialsSearchQuery(debouncedQ), enabled: opened });
  const key = useIdempotencyKey();
  const form = useForm<QuantityValues>({
    resolver: zodResolver(quantitySchema),
    mode: 'onChange',
    defaultValues: { quantity: edit?.quantity ?? null },
  });

  const preview = useMutation({
    mutationFn: (quantity: number) =>
      queryClient.fetchQuery(seasonAmountsQuery(seasonId, quantity)),
    onSuccess: (answer) => {
      key.renew();
      setAmounts(answer);
      setStep('SHOW_DETAILS');
    },
  });
  const attach = useMutation({
    mutationFn: () =>
      attachIndustrial(
        seasonId,
        { industrialId: industrial!.id, quantity: amounts!.quantity },
        key.current(),
      ),
    onSuccess: async () => {
      key.renew();
      notify('success', t('attach.attached', { name: industrial!.name }));
      await queryClient.invalidateQueries({ queryKey: seasonKeys.all });
      onClose();
    },
  });

  const optionName = (o: { firstname: string; lastname: string }) => `${o.firstname} ${o.lastname}`;
  const data = (options.data?.data ?? []).map((o) => ({
    value: o.id,
    label: o.organization ? `${optionName(o)} (${o.organization.denomination})` : optionName(o),
  }));

  const chosen = industrial && (
    <Group justify="space-between">
      <Text>
        <Text span c="dimmed">
          {t('attach.chosen')} :{' '}
        </Text>
        <Text span fw={600}>
          {industrial.name}
        </Text>
      </Text>
      {!edit && (
        <Anchor
          component="button"
          type="button"
          aria-label={t('attach.modifyIndustrial')}
          onClick={() => {
            setAmounts(null);
            setStep('SEARCH_INDUSTRIAL');
          }}
        >
          {t('attach.modify')}
        </Anchor>
      )}
    </Group>
  );

  return (
    <AppModal
      opened={opened}
      onClose={onClose}
      size={800}
      title={t(edit ? 'attach.editTitle' : 'attach.title')}
    >
      {step === 'SEARCH_INDUSTRIAL' && (
        <Stack>
          <Select
            label={t('attach.searchLabel')}
            placeholder={t('attach.searchPlaceholder')}
            searchable
            searchValue={q}
            onSearchChange={setQ}
            filter={({ options: all }) => all}
            data={data}
            nothingFoundMessage={options.isFetching ? t('common:loading') : t('attach.noResult')}
            value={industrial?.id ?? null}
            onChange={(value, option) => {
              if (!value) return;
              const picked = options.data?.data.find((o) => o.id === value);
              setIndustrial({
                id: value,
                name: picked ? optionName(picked) : (option?.label ?? value),
              });
              setStep('ADD_QUANTITY');
            }}
            data-autofocus
          />
        </Stack>
      )}
      {step === 'ADD_QUANTITY' && (
        <form
          noValidate
          onSubmit={form.handleSubmit((v) => v.quantity !== null && preview.mutate(v.quantity))}
        >
          <Stack>
            {chosen}
            <Controller
              control={form.control}
              name="quantity"
              render={({ field, fieldState }) => (
                <TextInput
                  label={t('attach.quantity')}
                  withAsterisk
                  inputMode="numeric"
                  rightSection={t('units.kg')}
                  rightSectionWidth={40}
                  name={field.name}
                  onBlur={field.onBlur}
                  value={field.value === null ? '' : groupThousands(String(field.value))}
                  onChange={(e) => field.onChange(parseMoney(e.currentTarget.value))}
                  error={fieldError(fieldState.error)}
                  data-autofocus
                />
              )}
            />
            <FormAlert message={preview.isError ? errorText(preview.error) : null} />
            <Group justify="flex-end">
              <Button variant="default" onClick={onClose}>
                {t('common:cancel')}
              </Button>
              <Button type="submit" loading={preview.isPending}>
                {t('attach.add')}
              </Button>
            </Group>
          </Stack>
        </form>
      )}
      {step === 'SHOW_DETAILS' && amounts && (
        <Stack>
          {chosen}
          <Group justify="space-between">
            <Text>
              <Text span c="dimmed">
                {t('attach.quantity')} :{' '}
              </Text>
              <Text span fw={600} data-testid="attach-quantity">
                {formatQuantity(amounts.quantity)}
              </Text>
            </Text>
            <Anchor
              component="button"
              type="button"
              aria-label={t('attach.modifyQuantity')}
              onClick={() => setStep('ADD_QUANTITY')}
            >
              {t('attach.modify')}
            </Anchor>
          </Group>
          <AmountCards amounts={amounts} />
          <FormAlert message={attach.isError ? errorText(attach.error) : null} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('common:cancel')}
            </Button>
            <Button loading={attach.isPending} onClick={() => attach.mutate()}>
              {t('attach.validate')}
            </Button>
          </Group>
        </Stack>
      )}
    </AppModal>
  );
}
