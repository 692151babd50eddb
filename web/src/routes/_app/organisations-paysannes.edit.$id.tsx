import { createFileRoute, redirect } from '@tanstack/react-router';
import { CooperativeFormPage } from '../../features/actors/cooperatives/components/CooperativeFormPage.js';
import { ROLES } from '../../shared/auth/roles.js';
import { guardRoute } from './-guard.js';

/** ops/edit/{id}: 'Modifier une coopérative'. */
export const Route = createFileRoute('/_app/organisations-paysannes/edit/$id')({
  beforeLoad: ({ context }) => {
    guardRoute('cooperatives', context.user);
    if (context.user.role?.code === ROLES.INDUSTRIAL) {
      throw redirect({ to: '/organisations-paysannes' });
    }
  },
  staticData: { bare: true },
  component: function EditCooperative() {
    const { id } = Route.useParams();
    return <CooperativeFormPage id={id} />;
  },
});
