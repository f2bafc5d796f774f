/**
 * The viewer pop-up (/pdfViewer) is a window of its own: on a touch screen (a facility tablet) its controls get
 * the tablet's 44 px too. Loaded on demand with antd and the viewer.
 */
import { useMediaQuery } from '../lib/useMediaQuery.ts';
import { PdfViewer } from '../viewer/PdfViewer.tsx';
import { AntdFrame } from './AntdShell.tsx';

export default function PopupViewer() {
  const touch = useMediaQuery('(pointer: coarse)');
  return (
    <AntdFrame tablet={touch}>
      <PdfViewer />
    </AntdFrame>
  );
}
