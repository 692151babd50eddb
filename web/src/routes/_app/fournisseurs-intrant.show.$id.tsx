import { createFileRoute } from '@tanstack/react-router';
import { SupplierDetailPage } from '../../features/actors/suppliers/components/SupplierDetailPage.js';
import { guardRoute } from './-guard.js';

/** showFournisseurIntrant: a supplier, its delivery points, fertilizers and payout accounts. */
export const Route = createFileRoute('/_app/fournisseurs-intrant/show/$id')({
  beforeLoad: ({ context }) => guardRoute('inputProviders', context.user),
  component: function ShowSupplier() {
    const { id } = Route.useParams();
    return <SupplierDetailPage id={id} />;
  },
});
