import { createFileRoute } from '@tanstack/react-router';
import { MyStatementPage } from '../../features/contracts/pdf/index.js';
import { guardRoute } from './-guard.js';

/** 'Mon relevé': the signed-in grower's statement (relevé) over a period, as a PDF. */
export const Route = createFileRoute('/_app/contrats/releve')({
  beforeLoad: ({ context }) => guardRoute('growerStatement', context.user),
  component: MyStatementPage,
});
