/**
 * The viewer pop-up (/pdfViewer) is a window of its own: on a touch screen (a facility tablet) its controls get
 * the tablet's 44 px too. Loaded on demand with antd and the viewer. An offender's shows mail only while their
 * portal is open and not locked (viewer/useTabletGate.ts).
 */
import { useMediaQuery } from '../lib/useMediaQuery.ts';
import { PdfViewer } from '../viewer/PdfViewer.tsx';
import { useTabletGate } from '../viewer/useTabletGate.ts';
import { AntdFrame } from './AntdShell.tsx';
import { Spinner } from './Spinner.tsx';

export default function PopupViewer() {
  const touch = useMediaQuery('(pointer: coarse)');
  const open = useTabletGate();
  return (
    <AntdFrame tablet={touch}>
      {open ? <PdfViewer /> : <Spinner page />}
    </AntdFrame>
  );
}
