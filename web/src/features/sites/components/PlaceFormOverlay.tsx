import { zodResolver } from '@hookform/resolvers/zod';
import {
  Autocomplete,
  Button,
  Group,
  Loader,
  Modal,
  NumberInput,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../shared/api/api-error.js';
import { useErrorText } from '../../../shared/api/use-error-text.js';
import { notify } from '../../../shared/ui/notify.js';
import { useFieldError } from '../../../shared/ui/use-field-error.js';
import { addSite, mapSettingsQuery, siteKeys, updateSite, type Site } from '../api/sites.js';
import {
  placeSchema,
  placeValuesOf,
  serverFieldErrors,
  toSiteInput,
  type FormMode,
  type PlaceValues,
} from '../model/forms.js';
import { communePointOf, loadBeninPlaces } from '../model/benin-labels.js';
import type { AddressSuggestion } from '../model/geocoder.js';
import { roundPoint, type Point } from '@filiere/api/sites/geometry';
import { SiteMap } from './SiteMap.js';
import { useGeocoder } from './use-geocoder.js';

const FIELDS = ['label', 'address', 'latitude', 'longitude'] as const;

/**
 * The place form (spec seasons §2.12, actors §2.9), a full-screen overlay: 'Ajouter un lieu'
 * (ADD) or 'Modifier un lieu' (MOD); 'Nom de l'emplacement' and 'Adresse' required, address
 * suggestions from the geocoder, a map whose click (or the marker dragged) sets the
 * coordinates rounded to 7 decimals and fills the address from the plus code; submit
 * disabled until valid. Saves the industrial's store.
 */
export function PlaceFormOverlay({
  opened,
  mode,
  userId,
  site,
  onClose,
}: {
  opened: boolean;
  mode: FormMode;
  userId: string;
  site?: Site | null;
  onClose: () => void;
}) {
  const { t } = useTranslation('places');
  const fieldError = useFieldError();
  const errorText = useErrorText();
  const queryClient = useQueryClient();
  const settings = useQuery({ ...mapSettingsQuery(), enabled: opened });
  const geocoder = useGeocoder(settings.data);
  const form = useForm<PlaceValues>({
    resolver: zodResolver(placeSchema) as never,
    mode: 'onChange',
    defaultValues: placeValuesOf(site),
  });
  const { control, formState } = form;
  useEffect(() => {
    if (opened) form.reset(placeValuesOf(site));
  }, [opened, site, form]);

  const latitude = useWatch({ control, name: 'latitude' });
  const longitude = useWatch({ control, name: 'longitude' });
  const address = useWatch({ control, name: 'address' });
  const marker =
    typeof latitude === 'number' && typeof longitude === 'number' ? { latitude, longitude } : null;
  const [focus, setFocus] = useState<Point | null>(null);
  const [locating, setLocating] = useState(false);
  /** A suggestion without coordinates was chosen: the point is still to be placed. */
  const [unplaced, setUnplaced] = useState(false);
  const close = () => {
    setUnplaced(false);
    onClose();
  };

  const [typed] = useDebouncedValue(address ?? '', 300);
  const [suggestions, setSuggestions] = useState<AddressSuggestion[]>([]);
  const [searchFor, setSearchFor] = useState<string | null>(null);
  useEffect(() => {
    if (!geocoder || searchFor === null || typed !== searchFor) return;
    let current = true;
    void geocoder.search(typed).then(
      (found) => current && setSuggestions(found),
      () => current && setSuggestions([]),
    );
    return () => {
      current = false;
    };
  }, [geocoder, typed, searchFor]);

  const setPoint = (point: Point) => {
    const rounded = roundPoint(point);
    form.setValue('latitude', rounded.latitude, { shouldValidate: true, shouldDirty: true });
    form.setValue('longitude', rounded.longitude, { shouldValidate: true, shouldDirty: true });
    return rounded;
  };

  /** A click or a drag: the point, then its address (plus code, and the geocoder's). */
  const pick = async (point: Point) => {
    const rounded = setPoint(point);
    setUnplaced(false);
    if (!geocoder) return;
    setLocating(true);
    try {
      const found = await geocoder.reverse(rounded);
      form.setValue('address', found, { shouldValidate: true, shouldDirty: true });
      setSearchFor(null);
      setSuggestions([]);
    } finally {
      setLocating(false);
    }
  };

  const save = useMutation({
    mutationFn: (values: PlaceValues) =>
      mode === 'MOD' && site
        ? updateSite(site.id, toSiteInput(values))
        : addSite(userId, toSiteInput(values)),
    onSuccess: async () => {
      notify('success', t(mode === 'MOD' ? 'place.updated' : 'place.added'));
      await queryClient.invalidateQueries({ queryKey: siteKeys.sites });
      close();
    },
    onError: (error) => {
      notify('error', errorText(error));
      if (error instanceof ApiError) {
        for (const [field, message] of serverFieldErrors(error, FIELDS)) {
          form.setError(field, { type: 'server', message });
        }
      }
    },
  });
  /**
   * A chosen suggestion: the geocoder's has a position, which becomes the point. One of the
   * reference data has none: the previous point no longer matches the address, so it is
   * cleared, the map moves to the suggestion's commune and the form asks for the point.
   */
  const choose = (label: string) => {
    const chosen = suggestions.find((s) => s.label === label);
    setSearchFor(null);
    if (chosen?.point) {
      setFocus(setPoint(chosen.point));
      setUnplaced(false);
      return;
    }
    form.setValue('latitude', undefined, { shouldValidate: true, shouldDirty: true });
    form.setValue('longitude', undefined, { shouldValidate: true, shouldDirty: true });
    setUnplaced(true);
    void loadBeninPlaces().then((places) => {
      const near = communePointOf(places, label);
      if (near) setFocus(near);
    });
  };

  const text = (error: Parameters<typeof fieldError>[0]) =>
    error?.type === 'server' ? error.message : fieldError(error);

  return (
    <Modal
      opened={opened}
      onClose={close}
      fullScreen
      title={t(mode === 'MOD' ? 'place.editTitle' : 'place.addTitle')}
      closeButtonProps={{ 'aria-label': t('common:close') }}
    >
      <form onSubmit={form.handleSubmit((values) => save.mutate(values))} noValidate>
        <Stack>
          <SimpleGrid cols={{ base: 1, md: 2 }}>
            <Controller
              control={control}
              name="label"
              render={({ field, fieldState }) => (
                <TextInput
                  {...field}
                  label={t('place.label')}
                  placeholder={t('place.labelPlaceholder')}
                  required
                  error={text(fieldState.error)}
                />
              )}
            />
            <Controller
              control={control}
              name="address"
              render={({ field, fieldState }) => (
                <Autocomplete
                  ref={field.ref}
                  name={field.name}
                  value={field.value ?? ''}
                  onBlur={field.onBlur}
                  onChange={(value) => {
                    field.onChange(value);
                    setSearchFor(value);
                  }}
                  data={[...new Set(suggestions.map((s) => s.label))]}
                  filter={({ options }) => options}
                  onOptionSubmit={choose}
                  label={t('place.address')}
                  placeholder={t('place.addressPlaceholder')}
                  description={t(
                    geocoder?.online === false ? 'place.offlineHint' : 'place.addressHint',
                  )}
                  required
                  rightSection={
                    locating ? <Loader size="xs" aria-label={t('place.locating')} /> : null
                  }
                  error={text(fieldState.error)}
                />
              )}
            />
          </SimpleGrid>
          <Text size="sm" c="dark.4" id="place-map-help">
            {t('place.mapHelp')}
          </Text>
          <div role="status">
            {unplaced ? (
              <Text size="sm" fw={600} c="orange.9">
                {t('place.unplaced')}
              </Text>
            ) : null}
          </div>
          {settings.data ? (
            <SiteMap
              settings={settings.data}
              marker={marker}
              focus={focus}
              onPick={(point) => void pick(point)}
              height="55vh"
            />
          ) : (
            <Loader aria-label={t('map.loading')} />
          )}
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            {(['latitude', 'longitude'] as const).map((name) => (
              <Controller
                key={name}
                control={control}
                name={name}
                render={({ field, fieldState }) => (
                  <NumberInput
                    ref={field.ref}
                    name={field.name}
                    value={field.value ?? ''}
                    onBlur={field.onBlur}
                    onChange={(value) =>
                      field.onChange(typeof value === 'number' ? value : undefined)
                    }
                    decimalScale={7}
                    label={t(`place.${name}`)}
                    required
                    error={text(fieldState.error)}
                  />
                )}
              />
            ))}
          </SimpleGrid>
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              {t('common:cancel')}
            </Button>
            <Button type="submit" disabled={!formState.isValid} loading={save.isPending}>
              {t(mode === 'MOD' ? 'place.submitEdit' : 'place.submitAdd')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
