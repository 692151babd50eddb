import { notifications } from '@mantine/notifications';
import i18n from 'i18next';

/** A toast (Mantine notifications) whose close button has an accessible name. */
export function notify(kind: 'success' | 'error' | 'info', message: string): void {
  notifications.show({
    color: kind === 'success' ? 'teal' : kind === 'error' ? 'red' : 'blue',
    message,
    closeButtonProps: { 'aria-label': i18n.t('common:close') },
  });
}
