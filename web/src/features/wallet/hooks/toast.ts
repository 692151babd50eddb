import { notifications } from '@mantine/notifications';
import i18n from 'i18next';

/** A toast whose close button has an accessible name (axe: button-name). */
export function toast(kind: 'success' | 'error' | 'info', message: string): void {
  notifications.show({
    color: kind === 'success' ? 'teal' : kind === 'error' ? 'red' : 'blue',
    message,
    closeButtonProps: { 'aria-label': i18n.t('common:close') },
  });
}
