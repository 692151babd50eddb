import { createFileRoute } from '@tanstack/react-router';
import { VerificationPage } from '../features/contracts/verification/VerificationPage.js';

function Page() {
  const { reference } = Route.useParams();
  return <VerificationPage reference={reference} />;
}

export const Route = createFileRoute('/verifier/$reference')({ component: Page });
