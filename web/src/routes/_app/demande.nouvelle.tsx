import { createFileRoute } from '@tanstack/react-router';
import { FileRequestPage } from '../../features/seasons/requests/index.js';
import { guardRoute } from './-guard.js';

/** /demande/nouvelle: a grower, or its cooperative, files a request (not in the spec). */
export const Route = createFileRoute('/_app/demande/nouvelle')({
  beforeLoad: ({ context }) => guardRoute('fileRequest', context.user),
  component: FileRequestPage,
});
