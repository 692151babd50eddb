import { useTranslation } from 'react-i18next';
import { formatMoney } from '../../../shared/format/money.js';
import { formatNumber } from '../../../shared/format/money.js';
import type { CollectionGrower, WeighingAnswer } from './api.js';

/** The weighing's receipt, laid out for a 58 mm receipt printer (collection.css). */
export function Receipt({ answer, grower }: { answer: WeighingAnswer; grower: CollectionGrower }) {
  const { t } = useTranslation('collection');
  const line = (label: string, value: string) => (
    <div className="line">
      <span>{label}</span>
      <span>{value}</span>
    </div>
  );
  return (
    <section className="collection-receipt" aria-label={t('receipt.title')}>
      <strong>{t('receipt.title')}</strong>
      {line(t('receipt.date'), answer.weighedOn.split('-').reverse().join('/'))}
      {line(t('receipt.contract'), answer.reference)}
      {line(t('receipt.grower'), grower.reference)}
      <div>
        {grower.firstname} {grower.lastname}
      </div>
      <hr />
      {line(t('receipt.weight'), `${formatNumber(answer.deliveredKg)} kg`)}
      {line(t('receipt.grade'), answer.grade)}
      {line(t('figures.value'), formatMoney(answer.deliveredAmount))}
      {answer.recoveries.map((r) => (
        <div key={r.debtId}>
          {line(t(`debtKinds.${r.kind}`, { defaultValue: r.kind }), `− ${formatMoney(r.amount)}`)}
        </div>
      ))}
      <hr />
      {line(t('figures.net'), formatMoney(answer.growerNet))}
      <div>{answer.payoutQueued ? t('receipt.mobileMoney') : t('receipt.wallet')}</div>
    </section>
  );
}
