/** 'My Documents' of the representative. Table, upload and actions come with the document work. */
import { Empty, Typography } from 'antd';

export function RepresentativeDocuments() {
  return (
    <section aria-labelledby='representative-documents'>
      <Typography.Title level={2} id='representative-documents' className='section-heading'>
        My Documents
      </Typography.Title>
      <Empty description='No documents found' />
    </section>
  );
}
