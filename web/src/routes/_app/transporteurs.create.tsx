import { createFileRoute, redirect } from '@tanstack/react-router';
import { CarrierFormPage } from '../../features/actors/carriers/components/CarrierFormPage.js';
import { ROLES } from '../../shared/auth/roles.js';
import { guardRoute } from './-guard.js';

/** transporteurs/create: 'Ajouter un transporteur' (the aggregator reads carriers only). */
export const Route = createFileRoute('/_app/transporteurs/create')({
  beforeLoad: ({ context }) => {
    guardRoute('carriers', context.user);
    if (context.user.role?.code === ROLES.INDUSTRIAL) throw redirect({ to: '/transporteurs' });
  },
  staticData: { bare: true },
  component: function CreateCarrier() {
    return <CarrierFormPage />;
  },
});
