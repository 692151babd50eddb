/**
 * LocationCascade — the address picker of every form that names a place in Benin (growers,
 * plots, carriers, cooperatives…): four searchable selects, Département → Commune →
 * Arrondissement → Village. Each is enabled once its parent is chosen; changing a parent
 * clears the levels below it. Field values are CODES ('D03', 'C017', 'A098', 'A098-001' for
 * Atlantique › Allada › Agbanou › Acclohoue), '' when not chosen; names are shown as in the
 * reference data (upper case, no accents).
 *
 * Props
 * - `control`  the react-hook-form `control` of the form.
 * - `prefix`   optional: the four fields are `${prefix}.department`, `${prefix}.commune`,
 *              `${prefix}.arrondissement`, `${prefix}.village` (a nested object).
 * - `names`    optional: field names per level, overriding `prefix` (e.g. the spec's
 *              `{ commune: 'borough', arrondissement: 'district' }`).
 *              Without either: `department`, `commune`, `arrondissement`, `village`.
 * - `required` shows the asterisks. The MESSAGES come from the form's zod schema: spread
 *              `locationShape(true)` into it ('Ce champ est obligatoire' on each empty level).
 * - `disabled` read-only; `cols` columns from the `sm` breakpoint (default 2; 1 on phones).
 *
 * Example
 * ```tsx
 * import { LocationCascade, locationShape, emptyLocation } from '../../locations/index.js';
 * const schema = z.object({ lastname: requiredText(), address: z.object(locationShape(true)) });
 * const form = useForm({ resolver: zodResolver(schema), mode: 'onChange',
 *   defaultValues: { lastname: '', address: emptyLocation } });
 * <LocationCascade control={form.control} prefix="address" required />
 * // submit: values.address.village is the village code; the API checks the whole chain.
 * ```
 * To show a stored village's names elsewhere: `useVillageChain(code)` (api/locations.ts).
 */
import { Loader, Select, SimpleGrid } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useController, type Control, type FieldValues } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useErrorText } from '../../../shared/api/use-error-text.js';
import { useFieldError } from '../../../shared/ui/use-field-error.js';
import {
  arrondissementsQuery,
  communesQuery,
  departmentsQuery,
  villagesQuery,
} from '../api/locations.js';
import {
  levelEnabled,
  levelsBelow,
  locationFieldNames,
  toOptions,
  type LocationCodes,
  type LocationFieldNames,
  type LocationLevel,
} from '../model/cascade.js';

export interface LocationCascadeProps<T extends FieldValues> {
  control: Control<T>;
  prefix?: string;
  names?: Partial<LocationFieldNames>;
  required?: boolean;
  disabled?: boolean;
  cols?: number;
}

export function LocationCascade<T extends FieldValues>({
  control,
  prefix,
  names,
  required = false,
  disabled = false,
  cols = 2,
}: LocationCascadeProps<T>) {
  const { t } = useTranslation('locations');
  const fieldError = useFieldError();
  const errorText = useErrorText();
  const fieldNames = locationFieldNames(prefix, names);
  const formControl = control as unknown as Control<FieldValues>;
  const controllers = {
    department: useController({ control: formControl, name: fieldNames.department }),
    commune: useController({ control: formControl, name: fieldNames.commune }),
    arrondissement: useController({ control: formControl, name: fieldNames.arrondissement }),
    village: useController({ control: formControl, name: fieldNames.village }),
  };
  const codes: LocationCodes = {
    department: String(controllers.department.field.value ?? ''),
    commune: String(controllers.commune.field.value ?? ''),
    arrondissement: String(controllers.arrondissement.field.value ?? ''),
    village: String(controllers.village.field.value ?? ''),
  };
  const lists = {
    department: useQuery(departmentsQuery),
    commune: useQuery(communesQuery(codes.department)),
    arrondissement: useQuery(arrondissementsQuery(codes.department, codes.commune)),
    village: useQuery(villagesQuery(codes.department, codes.commune, codes.arrondissement)),
  };

  const change = (level: LocationLevel, value: string | null) => {
    const next = value ?? '';
    if (next === codes[level]) return;
    controllers[level].field.onChange(next);
    for (const below of levelsBelow(level)) {
      if (codes[below]) controllers[below].field.onChange('');
    }
  };

  const select = (level: LocationLevel) => {
    const { field, fieldState } = controllers[level];
    const list = lists[level];
    const enabled = levelEnabled(level, codes);
    const loading = enabled && list.isFetching;
    return (
      <Select
        key={level}
        label={t(level)}
        withAsterisk={required}
        searchable
        clearable={!required}
        data={toOptions(list.data)}
        value={codes[level] || null}
        onChange={(value) => change(level, value)}
        onBlur={field.onBlur}
        ref={field.ref}
        name={field.name}
        disabled={disabled || !enabled}
        placeholder={loading ? t('loading') : enabled ? t('choose') : t('chooseParent')}
        nothingFoundMessage={t('nothingFound')}
        rightSection={loading ? <Loader size={16} /> : undefined}
        error={fieldError(fieldState.error) ?? (list.error ? errorText(list.error) : undefined)}
        data-testid={`location-${level}`}
      />
    );
  };

  return (
    <SimpleGrid cols={{ base: 1, sm: cols }}>
      {select('department')}
      {select('commune')}
      {select('arrondissement')}
      {select('village')}
    </SimpleGrid>
  );
}
