import { createFileRoute } from '@tanstack/react-router';
import { TermsPage } from '../../features/contracts/terms/TermsPage.js';
import { guardRoute } from './-guard.js';

/** 'Modèle de contrat': the versions of the delivery contract's clauses (super admin). */
export const Route = createFileRoute('/_app/contrats/modele')({
  beforeLoad: ({ context }) => guardRoute('contractTerms', context.user),
  component: TermsPage,
});
