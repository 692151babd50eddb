import { Text, VisuallyHidden } from '@mantine/core';
import { IconArrowDownLeft, IconArrowUpRight } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { formatMoney, formatNumber } from '../../../shared/format/money.js';

/**
 * An amount with its direction: '+' in green for money received, '−' in red for money paid,
 * an arrow, and the words 'Entrée'/'Sortie' for screen readers (colour and sign alone do not
 * say it to everyone). Without a direction, the bare amount.
 */
export function SignedAmount({
  amount,
  direction,
  currency = false,
}: {
  amount: number;
  direction: string | null | undefined;
  /** '1 000 F CFA' instead of the bare grouped number of the tables ('Montant FCFA'). */
  currency?: boolean;
}) {
  const { t } = useTranslation('wallet');
  const text = currency ? formatMoney(amount) : formatNumber(amount);
  if (direction !== 'IN' && direction !== 'OUT') return <>{text}</>;
  const out = direction === 'OUT';
  const Arrow = out ? IconArrowUpRight : IconArrowDownLeft;
  return (
    <Text
      span
      inherit
      fw={600}
      c={out ? 'red.9' : 'leaf.8'}
      style={{ whiteSpace: 'nowrap' }}
      data-direction={direction}
    >
      <Arrow size={14} aria-hidden style={{ verticalAlign: 'middle', marginRight: 2 }} />
      <VisuallyHidden component="span">{t(`directions.${direction}`)} </VisuallyHidden>
      {out ? '−' : '+'}
      {text}
    </Text>
  );
}
