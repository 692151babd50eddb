import { notifications } from '@mantine/notifications';
import i18n from 'i18next';

/** A toast (Mantine notifications) whose close button has an accessible name. */
export function notify(kind: 'success' | 'error', message: string): void {
  notifications.show({
    color: kind === 'success' ? 'teal' : 'red',
    message,
    closeButtonProps: { 'aria-label': i18n.t('common:close') },
  });
}
