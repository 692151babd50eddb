import {
  Alert,
  Anchor,
  Button,
  Checkbox,
  Group,
  Paper,
  ScrollArea,
  Select,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { IconAlertCircle, IconArrowLeft } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { Controller, useForm, type Control } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../../../shared/api/api-error.js';
import { useErrorText } from '../../../../shared/api/use-error-text.js';
import { useCurrentUser } from '../../../../shared/auth/current-user.js';
import { FormAlert } from '../../../../shared/ui/FormAlert.js';
import { notify } from '../../../../shared/ui/notify.js';
import { PageTitle } from '../../../../shared/ui/PageTitle.js';
import { useFieldError } from '../../../../shared/ui/use-field-error.js';
import {
  clusterConfigQuery,
  industrialOptionsQuery,
  saveClusterConfig,
  type ClusterConfig,
} from '../api/clusters.js';
import {
  clusterFormSchema,
  industrialChoices,
  toBody,
  toFormValues,
  type ClusterFormValues,
} from '../model/cluster-form.js';

/**
 * 'Configurer mon cluster' (config/cluster for the cluster manager, config/settings for the
 * SFD): back link, cluster name, aggregator (required), the cooperatives and the growers
 * without cooperative of the cluster (and those of no cluster, to take in), Enregistrer.
 */
export function ClusterConfigPage() {
  const { t } = useTranslation('clusters');
  const me = useCurrentUser();
  const config = useQuery({ ...clusterConfigQuery(me?.id ?? ''), enabled: Boolean(me?.id) });

  const missing = isApiError(config.error) && config.error.reason === 'NO_CLUSTER';
  return (
    <>
      <Anchor
        component="button"
        type="button"
        onClick={() => window.history.back()}
        mb="sm"
        c="dark.6"
      >
        <Group gap={4}>
          <IconArrowLeft size={16} aria-hidden />
          {t('common:back')}
        </Group>
      </Anchor>
      <PageTitle>{t('title')}</PageTitle>
      {missing ? (
        <Alert
          color="leaf"
          variant="light"
          role="status"
          data-testid="cluster-missing"
          icon={<IconAlertCircle aria-hidden />}
          title={t('missing.title')}
        >
          <Stack gap="sm" align="flex-start">
            <Text size="sm">{t('missing.text')}</Text>
            <Button component={Link} to="/dashboard" variant="default" size="compact-sm">
              {t('missing.dashboard')}
            </Button>
          </Stack>
        </Alert>
      ) : config.isError ? (
        <FormAlert message={config.error.message} />
      ) : !config.data || !me ? (
        <Text c="dimmed">{t('common:loading')}</Text>
      ) : (
        <ClusterConfigForm
          key={config.data.updatedAt ?? 'new'}
          config={config.data}
          managerId={me.id}
        />
      )}
    </>
  );
}

function ClusterConfigForm({ config, managerId }: { config: ClusterConfig; managerId: string }) {
  const { t } = useTranslation('clusters');
  const fieldError = useFieldError();
  const errorText = useErrorText();
  const queryClient = useQueryClient();
  const industrials = useQuery(industrialOptionsQuery);
  const form = useForm<ClusterFormValues>({
    resolver: zodResolver(clusterFormSchema),
    mode: 'onChange',
    defaultValues: toFormValues(config),
  });
  useEffect(() => {
    void form.trigger();
  }, [form]);
  const save = useMutation({
    mutationFn: (values: ClusterFormValues) => saveClusterConfig(toBody(values, managerId)),
    onSuccess: async (answer) => {
      notify('success', answer.message);
      queryClient.setQueryData(['clusters', 'config', managerId], answer.data);
      await queryClient.invalidateQueries({ queryKey: ['clusters'] });
    },
  });
  const { errors, isValid } = form.formState;
  const inCluster = (clusterId: string | null) => clusterId === config.cluster.id;

  return (
    <Paper withBorder p="lg" radius="md" maw={880}>
      <form onSubmit={form.handleSubmit((v) => save.mutate(v))} noValidate>
        <Stack>
          <FormAlert message={save.isError ? errorText(save.error) : null} />
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput
              label={t('name')}
              withAsterisk
              error={fieldError(errors.clusterName)}
              {...form.register('clusterName')}
            />
            <Controller
              control={form.control}
              name="industrialUserId"
              render={({ field }) => (
                <Select
                  label={t('aggregator')}
                  withAsterisk
                  searchable
                  nothingFoundMessage={t('common:empty')}
                  placeholder={
                    industrials.isLoading ? t('common:loading') : t('aggregatorPlaceholder')
                  }
                  data={industrialChoices(industrials.data?.data ?? [], config.industrial)}
                  value={field.value || null}
                  onChange={(v) => field.onChange(v ?? '')}
                  onBlur={field.onBlur}
                  error={fieldError(errors.industrialUserId)}
                  data-testid="cluster-aggregator"
                />
              )}
            />
          </SimpleGrid>
          <CheckboxList
            control={form.control}
            name="cooperativeIds"
            legend={t('cooperatives')}
            empty={t('noCooperative')}
            items={config.options.cooperatives.map((c) => ({
              id: c.id,
              label: `${c.label} (${c.reference})`,
              fixed: inCluster(c.clusterId),
            }))}
            fixedHint={t('alreadyIn')}
            searchLabel={t('searchCooperatives')}
          />
          <CheckboxList
            control={form.control}
            name="growersId"
            legend={t('growers')}
            empty={t('noGrower')}
            items={config.options.growers.map((g) => ({
              id: g.id,
              label: `${g.user.lastname} ${g.user.firstname}`,
              fixed: inCluster(g.clusterId),
            }))}
            fixedHint={t('alreadyIn')}
            searchLabel={t('searchGrowers')}
          />
          <Group justify="flex-end">
            <Button type="submit" loading={save.isPending} disabled={!isValid}>
              {t('common:save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}

/** A checkbox list of a form array field; rows already in the cluster stay ticked. */
function CheckboxList({
  control,
  name,
  legend,
  empty,
  items,
  fixedHint,
  searchLabel,
}: {
  control: Control<ClusterFormValues>;
  name: 'cooperativeIds' | 'growersId';
  legend: string;
  empty: string;
  items: { id: string; label: string; fixed: boolean }[];
  fixedHint: string;
  searchLabel: string;
}) {
  const [filter, setFilter] = useState('');
  const needle = filter.trim().toLowerCase();
  const shown = needle ? items.filter((i) => i.label.toLowerCase().includes(needle)) : items;
  return (
    <Controller
      control={control}
      name={name}
      render={({ field }) => (
        <Checkbox.Group
          label={legend}
          value={field.value}
          onChange={(value) => field.onChange(value)}
          data-testid={`cluster-${name}`}
        >
          {items.length > 8 && (
            <TextInput
              mt="xs"
              size="xs"
              aria-label={searchLabel}
              placeholder={searchLabel}
              value={filter}
              onChange={(e) => setFilter(e.currentTarget.value)}
            />
          )}
          {items.length === 0 ? (
            <Text c="dimmed" size="sm" mt="xs">
              {empty}
            </Text>
          ) : (
            <ScrollArea.Autosize mah={280} mt="xs" type="auto">
              <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="xs">
                {shown.map((item) => (
                  <Checkbox
                    key={item.id}
                    value={item.id}
                    label={item.label}
                    description={item.fixed ? fixedHint : undefined}
                    disabled={item.fixed}
                  />
                ))}
              </SimpleGrid>
            </ScrollArea.Autosize>
          )}
        </Checkbox.Group>
      )}
    />
  );
}
