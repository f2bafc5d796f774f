/**
 * /portal/offender/view/:fileUrl: the viewer inside the portal, with antd (the viewer's toolbar and dialogs)
 * at the tablet's 44 px. Its own chunk: antd, the viewer and pdf.js arrive only when a document is opened.
 */
import { useParams } from 'react-router-dom';
import { AntdFrame } from '../../components/AntdShell.tsx';
import { PdfViewer } from '../../viewer/PdfViewer.tsx';

export default function TabletViewer() {
  const { fileUrl } = useParams();
  return (
    <AntdFrame tablet>
      <PdfViewer documentId={fileUrl} />
    </AntdFrame>
  );
}
