import { zodResolver } from '@hookform/resolvers/zod';
import {
  ActionIcon,
  Button,
  Group,
  Paper,
  Stack,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useFieldArray, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { useErrorText } from '../../../shared/api/use-error-text.js';
import { formatDate } from '../../../shared/format/date.js';
import { DataTable, type Column } from '../../../shared/ui/DataTable.js';
import { notify } from '../../../shared/ui/notify.js';
import { PageTitle } from '../../../shared/ui/PageTitle.js';
import { PaginationBar } from '../../../shared/ui/PaginationBar.js';
import { StatusBadge } from '../../../shared/ui/StatusBadge.js';
import { useFieldError } from '../../../shared/ui/use-field-error.js';
import { publishTerms, termsQuery, type TermsVersion } from './api.js';

/** The API's limits (contracts/documents/http/routes.ts), checked before sending. */
const termsSchema = z.object({
  clauses: z
    .array(
      z.object({
        title: z
          .string()
          .trim()
          .min(1, 'contractTerms:form.titleRequired')
          .max(120, 'contractTerms:form.titleTooLong'),
        body: z
          .string()
          .trim()
          .min(1, 'contractTerms:form.bodyRequired')
          .max(4000, 'contractTerms:form.bodyTooLong'),
      }),
    )
    .min(1, 'contractTerms:form.oneClause')
    .max(30, 'contractTerms:form.tooMany'),
});
type TermsForm = z.infer<typeof termsSchema>;

const PER_PAGE = 10;

/**
 * 'Modèle de contrat' (super admin): the versions of the delivery contract's clauses, newest
 * first, the one in force shown in full, and a form that publishes the next version (a
 * contract prints the version in force when it was created).
 */
export function TermsPage() {
  const { t } = useTranslation('contractTerms');
  const terms = useQuery(termsQuery);
  const [page, setPage] = useState(1);
  const versions = terms.data?.versions ?? [];
  const current = versions[0];
  const columns: Column<TermsVersion & { id: number }>[] = [
    {
      name: 'version',
      title: t('versions.version'),
      transform: (v) => (
        <Group gap={6}>
          <Text size="sm">{t('versions.number', { version: v.version })}</Text>
          {v.version === current?.version && (
            <StatusBadge kind="success" label={t('versions.current')} />
          )}
        </Group>
      ),
    },
    {
      name: 'publishedAt',
      title: t('versions.publishedAt'),
      transform: (v) => (v.publishedAt ? formatDate(v.publishedAt) : t('versions.builtIn')),
    },
    {
      name: 'publishedBy',
      title: t('versions.publishedBy'),
      transform: (v) =>
        v.publishedBy ? `${v.publishedBy.firstname} ${v.publishedBy.lastname}` : '—',
    },
    {
      name: 'clauses',
      title: t('versions.clauses'),
      transform: (v) => v.clauses.length,
    },
  ];
  return (
    <Stack gap="lg">
      <PageTitle>{t('title')}</PageTitle>
      <Paper withBorder p="md" radius="md">
        <Title order={2} size="h4" mb="sm">
          {t('versions.title')}
        </Title>
        <DataTable
          columns={columns}
          rows={
            terms.isLoading
              ? undefined
              : versions
                  .slice((page - 1) * PER_PAGE, page * PER_PAGE)
                  .map((v) => ({ ...v, id: v.version }))
          }
          loading={terms.isLoading}
          caption={t('versions.title')}
        />
        <PaginationBar page={page} total={versions.length} perPage={PER_PAGE} onChange={setPage} />
      </Paper>
      {current && (
        <Paper withBorder p="md" radius="md">
          <Title order={2} size="h4" mb="sm">
            {t('current.title', { version: current.version })}
          </Title>
          <Stack gap="sm">
            {current.clauses.map((c, i) => (
              <div key={i}>
                <Text fw={600} size="sm">
                  {c.title}
                </Text>
                <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
                  {c.body}
                </Text>
              </div>
            ))}
          </Stack>
        </Paper>
      )}
      {current && (
        <PublishForm
          key={current.version}
          current={current}
          placeholders={terms.data?.placeholders ?? []}
        />
      )}
    </Stack>
  );
}

function PublishForm({
  current,
  placeholders,
}: {
  current: TermsVersion;
  placeholders: { name: string; description: string }[];
}) {
  const { t } = useTranslation('contractTerms');
  const fieldError = useFieldError();
  const errorText = useErrorText();
  const queryClient = useQueryClient();
  const form = useForm<TermsForm>({
    resolver: zodResolver(termsSchema),
    mode: 'onChange',
    defaultValues: { clauses: current.clauses.map((c) => ({ ...c })) },
  });
  const clauses = useFieldArray({ control: form.control, name: 'clauses' });
  const publish = useMutation({
    mutationFn: (values: TermsForm) => publishTerms(values.clauses),
    onSuccess: async ({ version }) => {
      notify('success', t('form.published', { version }));
      await queryClient.invalidateQueries({ queryKey: ['contracts', 'terms'] });
    },
    onError: (error) => notify('error', errorText(error)),
  });
  const errors = form.formState.errors;
  return (
    <Paper withBorder p="md" radius="md">
      <form
        noValidate
        aria-labelledby="terms-form-title"
        onSubmit={form.handleSubmit((values) => publish.mutate(values))}
      >
        <Title order={2} size="h4" mb="xs" id="terms-form-title">
          {t('form.title', { version: current.version + 1 })}
        </Title>
        <Text size="sm" c="dimmed" mb="sm">
          {t('form.placeholders', {
            names: placeholders.map((p) => `{${p.name}}`).join(', '),
          })}
        </Text>
        <Stack gap="md">
          {clauses.fields.map((field, i) => (
            <Paper key={field.id} withBorder p="sm" radius="sm">
              <Stack gap="xs">
                <Group justify="space-between" align="flex-end" wrap="nowrap">
                  <TextInput
                    style={{ flex: 1 }}
                    label={t('form.clauseTitle', { n: i + 1 })}
                    required
                    {...form.register(`clauses.${i}.title`)}
                    error={fieldError(errors.clauses?.[i]?.title)}
                  />
                  <ActionIcon
                    variant="light"
                    color="red"
                    size="lg"
                    aria-label={t('form.remove', { n: i + 1 })}
                    onClick={() => clauses.remove(i)}
                    disabled={clauses.fields.length <= 1}
                  >
                    ×
                  </ActionIcon>
                </Group>
                <Textarea
                  label={t('form.clauseBody', { n: i + 1 })}
                  required
                  autosize
                  minRows={3}
                  {...form.register(`clauses.${i}.body`)}
                  error={fieldError(errors.clauses?.[i]?.body)}
                />
              </Stack>
            </Paper>
          ))}
          {errors.clauses?.root && (
            <Text c="red.8" size="sm">
              {fieldError(errors.clauses.root)}
            </Text>
          )}
          <Group justify="space-between">
            <Button
              variant="light"
              onClick={() => clauses.append({ title: '', body: '' })}
              disabled={clauses.fields.length >= 30}
            >
              {t('form.add')}
            </Button>
            <Button type="submit" loading={publish.isPending}>
              {t('form.publish')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}
