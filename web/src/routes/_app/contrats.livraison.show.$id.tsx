import { createFileRoute, redirect } from '@tanstack/react-router';
import { DeliveryContractDetailPage } from '../../features/contracts/delivery/components/DeliveryContractDetailPage.js';
import { CONTRACT_READERS } from '../../features/contracts/delivery/model/statuses.js';
import { HOME_PATH } from '../../shared/auth/redirect.js';

/**
 * ShowContratLivraison: the contract pages' roles (super admin, admin, industrial) and the
 * grower (signed in) or its cooperative, who confirm it here.
 */
export const Route = createFileRoute('/_app/contrats/livraison/show/$id')({
  beforeLoad: ({ context }) => {
    if (!CONTRACT_READERS.includes(context.user.role?.code ?? '')) {
      throw redirect({ href: HOME_PATH });
    }
  },
  component: function ShowDeliveryContract() {
    const { id } = Route.useParams();
    return <DeliveryContractDetailPage id={id} />;
  },
});
