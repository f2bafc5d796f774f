/**
 * /pdfViewer/:documentId. Shows 'Loading document...' first; the viewer itself
 * comes with the document work, so for now a placeholder follows.
 */
import { Alert, Flex, Spin, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useParams } from 'react-router-dom';

export const VIEWER_TEXTS = {
  loading: 'Loading document...',
  noId: 'No document ID provided',
  placeholder: 'The document viewer is not available yet.',
} as const;

export function PdfViewer({ documentId: given }: { documentId?: string }) {
  const params = useParams();
  const documentId = given ?? params.documentId ?? params.fileUrl;
  const [loading, setLoading] = useState(true);
  useEffect(() => {
    // No request to wait for yet: the loading state is shown briefly so the
    // screen already has the shape the real viewer will have.
    const timer = window.setTimeout(() => setLoading(false), 300);
    return () => window.clearTimeout(timer);
  }, [documentId]);

  if (!documentId) return <Alert type='error' title={VIEWER_TEXTS.noId} showIcon />;
  return (
    <main className='viewer'>
      {loading
        ? (
          <Flex vertical align='center' gap={12} role='status'>
            <Spin size='large' />
            <Typography.Text>{VIEWER_TEXTS.loading}</Typography.Text>
          </Flex>
        )
        : <Alert type='info' title={VIEWER_TEXTS.placeholder} showIcon />}
    </main>
  );
}
