import { createFileRoute, redirect } from '@tanstack/react-router';
import { GrowerFormPage } from '../../features/actors/growers/components/GrowerFormPage.js';
import { ROLES } from '../../shared/auth/roles.js';
import { guardRoute } from './-guard.js';

/** 'Modifier un producteur' (staff in reach; the cooperative only reads its growers). */
export const Route = createFileRoute('/_app/producteurs/edit/$id')({
  beforeLoad: ({ context }) => {
    guardRoute('growers', context.user);
    if (context.user.role?.code === ROLES.FARMER_ORGANIZATION) {
      throw redirect({ to: '/producteurs' });
    }
  },
  staticData: { bare: true },
  component: function EditGrower() {
    const { id } = Route.useParams();
    return <GrowerFormPage id={id} />;
  },
});
