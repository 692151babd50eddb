import { TextInput, type TextInputProps } from '@mantine/core';
import { forwardRef } from 'react';

const ALLOWED = new Set([
  'Backspace',
  'Delete',
  'Tab',
  'ArrowLeft',
  'ArrowRight',
  'Home',
  'End',
  'Enter',
]);

/** A number input that blocks non-digit keys (phones, IFU, codes). */
export const DigitsInput = forwardRef<HTMLInputElement, TextInputProps>(
  function DigitsInput(props, ref) {
    return (
      <TextInput
        ref={ref}
        inputMode="numeric"
        {...props}
        onKeyDown={(event) => {
          if (
            !event.ctrlKey &&
            !event.metaKey &&
            !ALLOWED.has(event.key) &&
            !/^\d$/.test(event.key)
          ) {
            event.preventDefault();
          }
          props.onKeyDown?.(event);
        }}
      />
    );
  },
);
