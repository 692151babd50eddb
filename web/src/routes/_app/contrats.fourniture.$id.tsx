import { createFileRoute } from '@tanstack/react-router';
import { InputSupplyContractPage } from '../../features/contracts/supply/components/InputSupplyContractPage.js';
import { guardRoute } from './-guard.js';

/** ShowContratIntrant: one input supply contract. */
export const Route = createFileRoute('/_app/contrats/fourniture/$id')({
  beforeLoad: ({ context }) => guardRoute('inputSupplyContracts', context.user),
  component: function InputSupplyContract() {
    const { id } = Route.useParams();
    return <InputSupplyContractPage key={id} id={id} />;
  },
});
