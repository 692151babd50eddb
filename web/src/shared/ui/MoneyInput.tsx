import { TextInput, type TextInputProps } from '@mantine/core';
import { groupThousands, parseMoney } from '../format/money.js';

type Props = Omit<TextInputProps, 'value' | 'onChange'> & {
  value: number | null;
  onChange: (value: number | null) => void;
};

/** Amount in F CFA: strips non-digits, groups thousands with spaces, yields an integer. */
export function MoneyInput({ value, onChange, ...props }: Props) {
  return (
    <TextInput
      inputMode="numeric"
      rightSection="F CFA"
      rightSectionWidth={56}
      {...props}
      value={value === null ? '' : groupThousands(String(value))}
      onChange={(event) => onChange(parseMoney(event.currentTarget.value))}
    />
  );
}
