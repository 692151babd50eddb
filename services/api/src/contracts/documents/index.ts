import type { ContractsArea } from '../area.js';
import { termsEvents, termsStream } from './domain/terms.js';
import * as documentReferences from './migrations/20261207_0900_document_references.js';

/**
 * Documents people sign and anyone can verify: the delivery contract's terms (a template the
 * super admin publishes in versions, stream `contractterms-delivery`), the acceptance trail
 * printed from a contract's stream, and the public references the documents' QR codes open
 * (`/verifier/{reference}`, table `document_references`). The PDFs themselves are drawn by
 * `pdf/`.
 */
export const documentsArea: ContractsArea = {
  name: 'contract-documents',
  migrations: { '20261207_0900_document_references': documentReferences },
  events: termsEvents,
  streams: [termsStream],
  http: async () => (await import('./http/routes.js')).registerContractDocuments,
};

export type { DocumentsTables } from './tables.js';
