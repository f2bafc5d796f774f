/**
 * /portal/offender/view/:fileUrl: the viewer inside the portal, with antd (the viewer's toolbar and dialogs)
 * at the tablet's 44 px. Its own chunk: antd, the viewer and pdf.js arrive only when a document is opened.
 */
import { useNavigate, useParams } from 'react-router-dom';
import { AntdFrame } from '../../components/AntdShell.tsx';
import { ROLE_HOME } from '../../lib/routing.ts';
import { PdfViewer } from '../../viewer/PdfViewer.tsx';

export default function TabletViewer() {
  const { fileUrl } = useParams();
  const navigate = useNavigate();
  return (
    <AntdFrame tablet>
      {/* Close and Escape go back to the list. */}
      <PdfViewer documentId={fileUrl} onClose={() => navigate(ROLE_HOME.offender)} />
    </AntdFrame>
  );
}
