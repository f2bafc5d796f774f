/** The offender's document list. The table, search, paging and actions come with the document work. */
import { Empty, Typography } from 'antd';

export function OffenderDocuments() {
  return (
    <section aria-labelledby='offender-documents' className='list-area'>
      <Typography.Title level={2} id='offender-documents' className='section-heading'>
        My documents
      </Typography.Title>
      <Empty description='No documents found' />
    </section>
  );
}
