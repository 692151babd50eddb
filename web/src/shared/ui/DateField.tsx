import { DateInput, YearPickerInput, type DateInputProps } from '@mantine/dates';
import { useTranslation } from 'react-i18next';

/**
 * The names of a calendar's controls (previous/next month, year, decade; the level buttons):
 * Mantine leaves them unnamed, and axe refuses an unnamed button (the previous-month arrow,
 * even disabled, when the calendar is open).
 */
export function useCalendarLabels() {
  const { t } = useTranslation('common');
  return {
    previousMonth: t('calendar.previousMonth'),
    nextMonth: t('calendar.nextMonth'),
    previousYear: t('calendar.previousYear'),
    nextYear: t('calendar.nextYear'),
    previousDecade: t('calendar.previousDecade'),
    nextDecade: t('calendar.nextDecade'),
    monthLevelControl: t('calendar.monthLevelControl'),
    yearLevelControl: t('calendar.yearLevelControl'),
  };
}

/** A date input that accepts a minimum date (`minDate`); its clear button and calendar controls are named. */
export function DateField(props: DateInputProps) {
  const { t } = useTranslation();
  const ariaLabels = useCalendarLabels();
  return (
    <DateInput
      valueFormat="DD/MM/YYYY"
      clearable
      clearButtonProps={{ 'aria-label': t('clearDate') }}
      ariaLabels={ariaLabels}
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
  const ariaLabels = useCalendarLabels();
  const year = value ?? new Date().getFullYear();
  return (
    <YearPickerInput
      label={label ?? t('year')}
      ariaLabels={ariaLabels}
      value={`${year}-01-01`}
      onChange={(v) => v && onChange(Number(String(v).slice(0, 4)))}
    />
  );
}
