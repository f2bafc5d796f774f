/** The attorney's documents: what they sent and what their representatives sent (marked 'Sent by …'). */
import { SenderDocuments } from '../../mail/SenderDocuments.tsx';
import { ATTORNEY_UPLOAD_TEXTS } from '../../mail/uploadForm.ts';

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
