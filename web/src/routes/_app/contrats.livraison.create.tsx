import { createFileRoute, redirect } from '@tanstack/react-router';
import { CreateDeliveryContractPage } from '../../features/contracts/delivery/components/CreateDeliveryContractPage.js';
import { ROLES } from '../../shared/auth/roles.js';
import { guardRoute } from './-guard.js';

/** createContratLivraisonSingle: the aggregator only (its wallet holds the amount). */
export const Route = createFileRoute('/_app/contrats/livraison/create')({
  beforeLoad: ({ context }) => {
    guardRoute('deliveryContracts', context.user);
    if (context.user.role?.code !== ROLES.INDUSTRIAL) throw redirect({ to: '/contrats/livraison' });
  },
  component: function CreateDeliveryContract() {
    return <CreateDeliveryContractPage />;
  },
});
