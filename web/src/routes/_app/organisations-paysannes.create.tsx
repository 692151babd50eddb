import { createFileRoute, redirect } from '@tanstack/react-router';
import { CooperativeFormPage } from '../../features/actors/cooperatives/components/CooperativeFormPage.js';
import { ROLES } from '../../shared/auth/roles.js';
import { guardRoute } from './-guard.js';

/** ops/create: 'Ajouter une coopérative' (the aggregator reads cooperatives, registers none). */
export const Route = createFileRoute('/_app/organisations-paysannes/create')({
  beforeLoad: ({ context }) => {
    guardRoute('cooperatives', context.user);
    if (context.user.role?.code === ROLES.INDUSTRIAL) {
      throw redirect({ to: '/organisations-paysannes' });
    }
  },
  staticData: { bare: true },
  component: function CreateCooperative() {
    return <CooperativeFormPage />;
  },
});
