import { Button } from '@mantine/core';
import { IconQrcode } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { api } from '../../../shared/api/client.js';
import type { ApiResponse } from '../../../shared/api/types.js';
import { useErrorText } from '../../../shared/api/use-error-text.js';
import { notify } from '../../../shared/ui/notify.js';

/**
 * `GET contracts/card-download/{growerId}` → `{ url }`: a 10-minute signed link to the
 * grower's card (bank-card size: his name, his code in clear and as a QR code).
 */
export function growerCardLink(growerId: string): Promise<{ url: string }> {
  return api<ApiResponse<'/api/contracts/card-download/{growerId}'>>(
    `/contracts/card-download/${encodeURIComponent(growerId)}`,
  );
}

/** Is this signed PDF link a grower card's (its token's kind code is `g`)? */
export const isCardLink = (link: string) => /\/api\/contracts\/pdf\/g-/.test(link);

/**
 * 'Carte producteur' on a grower's page: opens the card in the PDF viewer, to print and hand
 * to the grower; the depot and the collection centre scan its QR code. The API's French
 * message (403, 404) is shown when it refuses.
 */
export function GrowerCardButton({ growerId }: { growerId: string }) {
  const { t } = useTranslation('contracts');
  const navigate = useNavigate();
  const errorText = useErrorText();
  const open = useMutation({
    mutationFn: () => growerCardLink(growerId),
    onSuccess: ({ url }) => navigate({ to: '/pdf/viewer/$link', params: { link: url } }),
    onError: (error) => notify('error', errorText(error)),
  });
  return (
    <Button
      variant="default"
      leftSection={<IconQrcode size={16} aria-hidden />}
      loading={open.isPending}
      onClick={() => open.mutate()}
    >
      {t('card.open')}
    </Button>
  );
}
