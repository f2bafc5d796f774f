-- "Opened" is the reader's screen showing the document, not its bytes leaving the server: the viewer reports it
-- (POST /api/documents/shown/{id}), audited once per session and document within the read-audit window through
-- the same claim row as a view, a print or a prefetch.
alter table document_read_audits drop constraint document_read_audits_kind_check;
alter table document_read_audits add constraint document_read_audits_kind_check
  check (kind in ('view', 'print', 'prefetch', 'shown'));
