import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Group, List, Loader, Modal, Stack, Text, TextInput } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../shared/api/api-error.js';
import { useErrorText } from '../../../shared/api/use-error-text.js';
import { notify } from '../../../shared/ui/notify.js';
import { useFieldError } from '../../../shared/ui/use-field-error.js';
import { addZone, mapSettingsQuery, siteKeys, updateZone, type Zone } from '../api/sites.js';
import {
  serverFieldErrors,
  toZoneInput,
  zoneSchema,
  zoneValuesOf,
  type FormMode,
  type ZoneValues,
} from '../model/forms.js';
import { addPoint, MIN_ZONE_POINTS, type Point } from '@filiere/api/sites/geometry';
import { SiteMap } from './SiteMap.js';

const EMPTY: Point[] = [];

/**
 * The coverage zone form (spec seasons §2.13, actors §2.9), a full-screen overlay: 'Ajouter
 * une zone de couverture' (ADD) or 'Modifier une zone de couverture' (MOD); 'Nom de la zone'
 * required; each click on the map adds a polygon point (rounded to 7 decimals), a point
 * already chosen is ignored with 'Ce point a deja été choisit'; at least 3 points to save.
 */
export function ZoneFormOverlay({
  opened,
  mode,
  zone,
  onClose,
}: {
  opened: boolean;
  mode: FormMode;
  zone?: Zone | null;
  onClose: () => void;
}) {
  const { t } = useTranslation('places');
  const fieldError = useFieldError();
  const errorText = useErrorText();
  const queryClient = useQueryClient();
  const settings = useQuery({ ...mapSettingsQuery(), enabled: opened });
  const form = useForm<ZoneValues>({
    resolver: zodResolver(zoneSchema) as never,
    mode: 'onChange',
    defaultValues: zoneValuesOf(zone),
  });
  const { control, formState } = form;
  const [notice, setNotice] = useState<string | null>(null);
  useEffect(() => {
    if (opened) form.reset(zoneValuesOf(zone));
  }, [opened, zone, form]);
  const close = () => {
    setNotice(null);
    onClose();
  };
  const points = useWatch({ control, name: 'coordinates' }) ?? EMPTY;

  const setPoints = (next: Point[]) =>
    form.setValue('coordinates', next, { shouldValidate: true, shouldDirty: true });
  const pick = (point: Point) => {
    const next = addPoint(form.getValues('coordinates'), point);
    if (next.duplicate) {
      setNotice(t('zone.duplicate'));
      notify('info', t('zone.duplicate'));
      return;
    }
    setNotice(null);
    setPoints(next.points);
  };

  const save = useMutation({
    mutationFn: (values: ZoneValues) =>
      mode === 'MOD' && zone
        ? updateZone(zone.id, toZoneInput(values))
        : addZone(toZoneInput(values)),
    onSuccess: async () => {
      notify('success', t(mode === 'MOD' ? 'zone.updated' : 'zone.added'));
      await queryClient.invalidateQueries({ queryKey: siteKeys.zones });
      close();
    },
    onError: (error) => {
      notify('error', errorText(error));
      if (error instanceof ApiError) {
        for (const [field, message] of serverFieldErrors(error, ['name', 'coordinates'] as const)) {
          form.setError(field, { type: 'server', message });
        }
      }
    },
  });
  const text = (error: Parameters<typeof fieldError>[0]) =>
    error?.type === 'server' ? error.message : fieldError(error);
  const missing = Math.max(0, MIN_ZONE_POINTS - points.length);

  return (
    <Modal
      opened={opened}
      onClose={close}
      fullScreen
      title={t(mode === 'MOD' ? 'zone.editTitle' : 'zone.addTitle')}
      closeButtonProps={{ 'aria-label': t('common:close') }}
    >
      <form onSubmit={form.handleSubmit((values) => save.mutate(values))} noValidate>
        <Stack>
          <Controller
            control={control}
            name="name"
            render={({ field, fieldState }) => (
              <TextInput
                {...field}
                label={t('zone.name')}
                placeholder={t('zone.namePlaceholder')}
                required
                error={text(fieldState.error)}
              />
            )}
          />
          <Text size="sm" c="dark.4">
            {t('zone.mapHelp')}
          </Text>
          {settings.data ? (
            <SiteMap settings={settings.data} polygon={points} onPick={pick} height="55vh" />
          ) : (
            <Loader aria-label={t('map.loading')} />
          )}
          <Text role="status" size="sm" c={notice ? 'red.8' : 'dark.4'} data-testid="zone-status">
            {notice ??
              (missing > 0
                ? t('zone.missing', { count: missing })
                : t('zone.enough', { count: points.length }))}
          </Text>
          {points.length > 0 && (
            <List type="ordered" size="sm" aria-label={t('zone.pointsList')}>
              {points.map((p) => (
                <List.Item key={`${p.latitude},${p.longitude}`}>
                  {p.latitude}, {p.longitude}
                </List.Item>
              ))}
            </List>
          )}
          {formState.errors.coordinates?.type === 'server' && (
            <Text c="red.8" size="sm" role="alert">
              {formState.errors.coordinates.message}
            </Text>
          )}
          <Group justify="space-between">
            <Group gap="xs">
              <Button
                variant="default"
                disabled={points.length === 0}
                onClick={() => setPoints(points.slice(0, -1))}
              >
                {t('zone.removeLast')}
              </Button>
              <Button
                variant="default"
                disabled={points.length === 0}
                onClick={() => setPoints([])}
              >
                {t('zone.clear')}
              </Button>
            </Group>
            <Group gap="xs">
              <Button variant="default" onClick={close}>
                {t('common:cancel')}
              </Button>
              <Button type="submit" disabled={!formState.isValid} loading={save.isPending}>
                {t(mode === 'MOD' ? 'zone.submitEdit' : 'zone.submitAdd')}
              </Button>
            </Group>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
