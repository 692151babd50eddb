/**
 * Contract PDFs on the web: the viewer page, the button that opens a contract's PDF, and the
 * grower's statement (its period form, the button on a grower's contracts, its own page), and
 * the grower's card with his QR code.
 */
export { ContractPdfButton, ReceiptPdfButton } from './ContractPdfButton.js';
export { PdfViewerPage } from './PdfViewerPage.js';
export {
  contractPdfLink,
  isPdfLink,
  isReceiptLink,
  PDF_LINK_PREFIX,
  receiptPdfLink,
} from './api.js';
export { GrowerCardButton, growerCardLink, isCardLink } from './GrowerCard.js';
export { GrowerStatementButton, MyStatementPage, StatementPeriodForm } from './GrowerStatement.js';
export { growerStatementLink, isStatementLink } from './statement.js';
