import { createFileRoute } from '@tanstack/react-router';
import { PdfViewerPage } from '../../features/contracts/pdf/index.js';

/**
 * pdfViewer (spec: /pdf/viewer/{link}): a contract's PDF with a back button and a download
 * link; `link` is the signed PDF url, URL-encoded in the path (the router decodes it). Any
 * signed-in user: the link itself is the credential, the API checked the reach when it made it.
 */
export const Route = createFileRoute('/_app/pdf/viewer/$link')({
  component: function PdfViewer() {
    const { link } = Route.useParams();
    return <PdfViewerPage key={link} link={link} />;
  },
});
