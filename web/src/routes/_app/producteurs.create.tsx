import { createFileRoute, redirect } from '@tanstack/react-router';
import { GrowerFormPage } from '../../features/actors/growers/components/GrowerFormPage.js';
import { ROLES } from '../../shared/auth/roles.js';
import { guardRoute } from './-guard.js';

/** createProducteur: 'Ajouter un producteur' (not for the cooperative role, spec §6). */
export const Route = createFileRoute('/_app/producteurs/create')({
  beforeLoad: ({ context }) => {
    guardRoute('growers', context.user);
    if (context.user.role?.code === ROLES.FARMER_ORGANIZATION) {
      throw redirect({ to: '/producteurs' });
    }
  },
  staticData: { bare: true },
  component: function CreateGrower() {
    return <GrowerFormPage />;
  },
});
