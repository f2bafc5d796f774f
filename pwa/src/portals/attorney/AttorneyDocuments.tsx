/** The attorney's documents: what they sent and what their representatives sent (marked 'Sent by …'). */
import { SenderDocuments } from '../../documents/SenderDocuments.tsx';
import { ATTORNEY_UPLOAD_TEXTS } from '../../documents/UploadModal.tsx';

const SOURCE = { kind: 'attorney' } as const;

export function AttorneyDocuments(
  { uploadOpen, onUploadClose }: { uploadOpen: boolean; onUploadClose(): void },
) {
  return (
    <SenderDocuments
      source={SOURCE}
      uploadPath='/documents/upload'
      uploadTexts={ATTORNEY_UPLOAD_TEXTS}
      uploadOpen={uploadOpen}
      onUploadClose={onUploadClose}
    />
  );
}
