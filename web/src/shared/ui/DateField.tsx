import { DateInput, YearPickerInput, type DateInputProps } from '@mantine/dates';
import { useTranslation } from 'react-i18next';

/** A date input that accepts a minimum date (`minDate`); its clear button is named. */
export function DateField(props: DateInputProps) {
  const { t } = useTranslation();
  return (
    <DateInput
      valueFormat="DD/MM/YYYY"
      clearable
      clearButtonProps={{ 'aria-label': t('clearDate') }}
      {...props}
    />
  );
}

/** A year picker; defaults to the current year. */
export function YearPicker({
  value,
  onChange,
  label,
}: {
  value?: number;
  onChange: (year: number) => void;
  label?: string;
}) {
  const { t } = useTranslation();
  const year = value ?? new Date().getFullYear();
  return (
    <YearPickerInput
      label={label ?? t('year')}
      value={`${year}-01-01`}
      onChange={(v) => v && onChange(Number(String(v).slice(0, 4)))}
    />
  );
}
