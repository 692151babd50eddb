import { createFileRoute } from '@tanstack/react-router';
import { SupplierFormPage } from '../../features/actors/suppliers/components/SupplierFormPage.js';
import { guardWriter } from './-supplier-guard.js';

/** fournisseurs-intrant/update/{id}: 'Modifier un fournisseur d'intrant'. */
export const Route = createFileRoute('/_app/fournisseurs-intrant/update/$id')({
  beforeLoad: ({ context }) => guardWriter(context.user),
  staticData: { bare: true },
  component: function UpdateSupplier() {
    const { id } = Route.useParams();
    return <SupplierFormPage id={id} />;
  },
});
