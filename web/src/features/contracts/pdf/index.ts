/** Contract PDFs on the web: the viewer page and the button that opens a contract's PDF. */
export { ContractPdfButton } from './ContractPdfButton.js';
export { PdfViewerPage } from './PdfViewerPage.js';
export { contractPdfLink, isPdfLink, PDF_LINK_PREFIX } from './api.js';
