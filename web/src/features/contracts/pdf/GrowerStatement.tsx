import { Button, Group, Paper, Stack, Text } from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { IconFileTypePdf } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useErrorText } from '../../../shared/api/use-error-text.js';
import { AppModal } from '../../../shared/ui/AppModal.js';
import { DateField } from '../../../shared/ui/DateField.js';
import { FormAlert } from '../../../shared/ui/FormAlert.js';
import { PageTitle } from '../../../shared/ui/PageTitle.js';
import { useFieldError } from '../../../shared/ui/use-field-error.js';
import { parseDay } from '../delivery/model/contract-form.js';
import {
  defaultStatementPeriod,
  growerStatementLink,
  statementPeriodSchema,
  type StatementPeriod,
} from './statement.js';

/**
 * The statement's period (from the 1st of January to today by default) and 'Télécharger le
 * relevé': asks the API for the signed link and opens it in the PDF viewer; the API's French
 * message (403, 404, 400) is shown in the form.
 */
export function StatementPeriodForm({
  growerId,
  onCancel,
}: {
  growerId: string | 'me';
  onCancel?: () => void;
}) {
  const { t } = useTranslation('contracts');
  const fieldError = useFieldError();
  const errorText = useErrorText();
  const navigate = useNavigate();
  const today = defaultStatementPeriod().to;
  const form = useForm<StatementPeriod>({
    resolver: zodResolver(statementPeriodSchema()),
    mode: 'onChange',
    defaultValues: defaultStatementPeriod(),
  });
  const open = useMutation({
    mutationFn: (period: StatementPeriod) => growerStatementLink(growerId, period),
    onSuccess: ({ url }) => navigate({ to: '/pdf/viewer/$link', params: { link: url } }),
  });
  const { errors, isValid } = form.formState;
  const day = (name: 'from' | 'to', label: string) => (
    <Controller
      control={form.control}
      name={name}
      render={({ field }) => (
        <DateField
          label={label}
          withAsterisk
          dateParser={parseDay}
          maxDate={today}
          clearable={false}
          value={field.value || null}
          onChange={(value) => {
            field.onChange(value ?? '');
            void form.trigger();
          }}
          onBlur={field.onBlur}
          name={field.name}
          error={fieldError(errors[name])}
        />
      )}
    />
  );
  return (
    <form onSubmit={form.handleSubmit((period) => open.mutate(period))} noValidate>
      <Stack>
        <Text size="sm">{t('statement.text')}</Text>
        <Group grow align="flex-start">
          {day('from', t('statement.from'))}
          {day('to', t('statement.to'))}
        </Group>
        <FormAlert message={open.isError ? errorText(open.error) : null} />
        <Group justify="flex-end">
          {onCancel ? (
            <Button variant="default" onClick={onCancel}>
              {t('common:cancel')}
            </Button>
          ) : null}
          <Button
            type="submit"
            loading={open.isPending}
            disabled={!isValid}
            leftSection={<IconFileTypePdf size={16} aria-hidden />}
          >
            {t('statement.download')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** 'Relevé (PDF)' on a grower's contracts: the period in a modal, then the viewer. */
export function GrowerStatementButton({ growerId }: { growerId: string }) {
  const { t } = useTranslation('contracts');
  const [opened, setOpened] = useState(false);
  return (
    <>
      <Button
        variant="light"
        leftSection={<IconFileTypePdf size={16} aria-hidden />}
        onClick={() => setOpened(true)}
      >
        {t('statement.open')}
      </Button>
      <AppModal opened={opened} onClose={() => setOpened(false)} title={t('statement.title')}>
        {opened ? (
          <StatementPeriodForm growerId={growerId} onCancel={() => setOpened(false)} />
        ) : null}
      </AppModal>
    </>
  );
}

/** 'Mon relevé' (/releve): the signed-in grower's own statement. */
export function MyStatementPage() {
  const { t } = useTranslation('contracts');
  return (
    <>
      <PageTitle>{t('statement.myTitle')}</PageTitle>
      <Paper p="lg" maw={640}>
        <StatementPeriodForm growerId="me" />
      </Paper>
    </>
  );
}
