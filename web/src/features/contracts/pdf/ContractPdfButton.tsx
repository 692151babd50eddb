import { Button } from '@mantine/core';
import { IconFileTypePdf, IconReceipt } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { useErrorText } from '../../../shared/api/use-error-text.js';
import { notify } from '../../../shared/ui/notify.js';
import { contractPdfLink, receiptPdfLink } from './api.js';

/**
 * 'Voir le PDF' on a delivery contract: asks the API for the PDF's signed link and opens it in
 * the viewer (/pdf/viewer/{link}); an error (403, 404…) is shown as the API's French message.
 */
export function ContractPdfButton({ contractId }: { contractId: string }) {
  const { t } = useTranslation('contracts');
  const errorText = useErrorText();
  const navigate = useNavigate();
  const open = useMutation({
    mutationFn: () => contractPdfLink(contractId),
    onSuccess: ({ url }) => navigate({ to: '/pdf/viewer/$link', params: { link: url } }),
    onError: (error) => notify('error', errorText(error)),
  });
  return (
    <Button
      variant="light"
      leftSection={<IconFileTypePdf size={16} aria-hidden />}
      loading={open.isPending}
      onClick={() => open.mutate()}
    >
      {t('pdf.open')}
    </Button>
  );
}

/**
 * 'Reçu de paiement' on a paid delivery contract: opens its payment receipt (the net, the debts
 * recovered, the verification QR) in the viewer, as 'Voir le PDF' does the contract.
 */
export function ReceiptPdfButton({ contractId }: { contractId: string }) {
  const { t } = useTranslation('contracts');
  const errorText = useErrorText();
  const navigate = useNavigate();
  const open = useMutation({
    mutationFn: () => receiptPdfLink(contractId),
    onSuccess: ({ url }) => navigate({ to: '/pdf/viewer/$link', params: { link: url } }),
    onError: (error) => notify('error', errorText(error)),
  });
  return (
    <Button
      variant="light"
      leftSection={<IconReceipt size={16} aria-hidden />}
      loading={open.isPending}
      onClick={() => open.mutate()}
    >
      {t('pdf.receipt')}
    </Button>
  );
}
