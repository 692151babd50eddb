import { Modal, type ModalProps } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** Modal with the spec's defaults: 500px wide, 32px padding, closes on the icon or the backdrop. */
export function AppModal(props: ModalProps) {
  const { t } = useTranslation();
  return (
    <Modal
      size={500}
      padding={32}
      centered
      closeOnClickOutside
      closeButtonProps={{ 'aria-label': t('close') }}
      {...props}
    />
  );
}
