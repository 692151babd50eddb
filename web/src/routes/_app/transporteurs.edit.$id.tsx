import { createFileRoute, redirect } from '@tanstack/react-router';
import { CarrierFormPage } from '../../features/actors/carriers/components/CarrierFormPage.js';
import { ROLES } from '../../shared/auth/roles.js';
import { guardRoute } from './-guard.js';

/** transporteurs/edit/{id}: 'Modifier un transporteur'. */
export const Route = createFileRoute('/_app/transporteurs/edit/$id')({
  beforeLoad: ({ context }) => {
    guardRoute('carriers', context.user);
    if (context.user.role?.code === ROLES.INDUSTRIAL) throw redirect({ to: '/transporteurs' });
  },
  staticData: { bare: true },
  component: function EditCarrier() {
    const { id } = Route.useParams();
    return <CarrierFormPage id={id} />;
  },
});
