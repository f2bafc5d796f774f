/** The attorney's sent documents. Table, upload and actions come with the document work. */
import { Empty, Typography } from 'antd';

export function AttorneyDocuments() {
  return (
    <section aria-labelledby='attorney-documents'>
      <Typography.Title level={2} id='attorney-documents' className='section-heading'>
        My Documents
      </Typography.Title>
      <Empty description='No documents found' />
    </section>
  );
}
