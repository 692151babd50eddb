import { createFileRoute } from '@tanstack/react-router';
import { TransactionDetailPage } from '../../../../features/wallet/components/TransactionDetailPage.js';

/** paiementShow: any signed-in user may open one of their transactions (the API checks). */
export const Route = createFileRoute('/_app/paiements-effectues/$id/show')({
  component: function PaymentShow() {
    const { id } = Route.useParams();
    return <TransactionDetailPage id={id} />;
  },
});
