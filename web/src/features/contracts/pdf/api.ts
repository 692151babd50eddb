import { api } from '../../../shared/api/client.js';
import type { ApiResponse } from '../../../shared/api/types.js';

/** Where the API serves a contract's PDF by its signed link (services/api/src/contracts/pdf). */
export const PDF_LINK_PREFIX = '/api/contracts/pdf/';

/**
 * `GET contracts/smarts-download/{id}` → `{ url }`: a 10-minute signed link to the contract's
 * PDF, readable without the access token (pdf.js and the download link fetch it).
 */
export function contractPdfLink(contractId: string): Promise<{ url: string }> {
  return api<ApiResponse<'/api/contracts/smarts-download/{id}'>>(
    `/contracts/smarts-download/${encodeURIComponent(contractId)}`,
  );
}

/**
 * `GET contracts/receipt-download/{id}` → `{ url }`: a 10-minute signed link to the payment
 * receipt of a paid (COMPLETED) contract; 404 before the payment.
 */
export function receiptPdfLink(contractId: string): Promise<{ url: string }> {
  return api<ApiResponse<'/api/contracts/receipt-download/{id}'>>(
    `/contracts/receipt-download/${encodeURIComponent(contractId)}`,
  );
}

/** Is this signed PDF link a payment receipt's (its token's kind code is `r`)? */
export const isReceiptLink = (link: string) => /\/api\/contracts\/pdf\/r-/.test(link);

/**
 * The viewer opens only the API's own signed links: a crafted `/pdf/viewer/{link}` pointing
 * elsewhere (another site, another API route) is refused before anything is fetched.
 */
export function isPdfLink(link: string): boolean {
  return /^\/api\/contracts\/pdf\/[A-Za-z0-9_.-]+$/.test(link);
}
