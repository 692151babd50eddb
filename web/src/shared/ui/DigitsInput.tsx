import { TextInput, type TextInputProps } from '@mantine/core';
import { forwardRef } from 'react';

/**
 * A number input that takes digits only (phones, IFU, codes): non-digit keys are blocked, and
 * whatever arrives another way — pasted, dropped, autofilled, typed on a phone's keyboard
 * (whose keys report no `key`) — loses its non-digits before the form sees it.
 */
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
            event.key.length === 1 && // a printable character, not Tab, arrows, Escape…
            !/^\d$/.test(event.key)
          ) {
            event.preventDefault();
          }
          props.onKeyDown?.(event);
        }}
        onChange={(event) => {
          const input = event.currentTarget;
          const digits = input.value.replace(/\D/g, '');
          if (digits !== input.value) {
            const caret = Math.max(
              0,
              (input.selectionStart ?? digits.length) - (input.value.length - digits.length),
            );
            input.value = digits;
            input.setSelectionRange?.(caret, caret);
          }
          props.onChange?.(event);
        }}
      />
    );
  },
);
