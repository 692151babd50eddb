import { notify } from '../../../shared/ui/notify.js';
import { Button, Code, Group, Stack, Text, TextInput } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AppModal } from '../../../shared/ui/AppModal.js';
import { validateBankSupply } from '../api/supplies.js';
import { useIdempotencyKey } from '../../../shared/api/use-idempotency-key.js';
import { useInvalidateWallet } from '../hooks/use-invalidate-wallet.js';
import { referenceMatches } from '../model/amount.js';
import type { Supply } from '../model/types.js';

/**
 * 'Valider l'approvisionnement': shows the bank reference; Valider is enabled
 * only once the super admin has retyped it exactly (35 % wide, as the spec says).
 */
export function ValidateSupplyModal({
  supply,
  onClose,
}: {
  supply: Supply | null;
  onClose: () => void;
}) {
  const { t } = useTranslation('wallet');
  const invalidate = useInvalidateWallet();
  const key = useIdempotencyKey();
  const [typed, setTyped] = useState('');
  const close = () => {
    onClose();
    setTyped('');
    key.renew();
  };
  const validate = useMutation({
    mutationFn: () => validateBankSupply(supply!, typed, key.current()),
    onSuccess: async () => {
      notify('success', t('adminSupplies.validated'));
      await invalidate();
      close();
    },
    // Spec: supply validation errors are only logged; the list reloads.
    onError: async (error) => {
      console.error('validate supply', error);
      await invalidate();
    },
  });
  const ok = supply ? referenceMatches(typed, supply.reference) : false;
  return (
    <AppModal
      opened={supply !== null}
      onClose={close}
      title={t('adminSupplies.modalTitle')}
      size="35%"
    >
      <Stack>
        <Text>{t('adminSupplies.modalText')}</Text>
        <Text>
          {t('adminSupplies.reference')} :{' '}
          <Code fz="md" data-testid="validate-reference">
            {supply?.reference}
          </Code>
        </Text>
        <TextInput
          label={t('adminSupplies.retype')}
          value={typed}
          onChange={(e) => setTyped(e.currentTarget.value)}
          autoComplete="off"
          data-autofocus
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={close}>
            {t('common:cancel')}
          </Button>
          <Button disabled={!ok} loading={validate.isPending} onClick={() => validate.mutate()}>
            {t('adminSupplies.validate')}
          </Button>
        </Group>
      </Stack>
    </AppModal>
  );
}
