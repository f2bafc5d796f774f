/** 'My Documents' of the representative: what they sent on their supervising attorney's behalf. */
import { SenderDocuments } from '../../mail/SenderDocuments.tsx';
import { REPRESENTATIVE_UPLOAD_TEXTS } from '../../mail/uploadForm.ts';

const SOURCE = { kind: 'representative' } as const;

export function RepresentativeDocuments(
  { uploadOpen, onUploadClose }: { uploadOpen: boolean; onUploadClose(): void },
) {
  return (
    <SenderDocuments
      source={SOURCE}
      uploadPath='/representative/upload'
      uploadTexts={REPRESENTATIVE_UPLOAD_TEXTS}
      uploadOpen={uploadOpen}
      onUploadClose={onUploadClose}
    />
  );
}
