import { createFileRoute } from '@tanstack/react-router';
import { SupplierFormPage } from '../../features/actors/suppliers/components/SupplierFormPage.js';
import { guardWriter } from './-supplier-guard.js';

/** fournisseurs-intrant/create: 'Ajouter un fournisseur d'intrant'. */
export const Route = createFileRoute('/_app/fournisseurs-intrant/create')({
  beforeLoad: ({ context }) => guardWriter(context.user),
  staticData: { bare: true },
  component: () => <SupplierFormPage />,
});
