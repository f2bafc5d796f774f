-- Sender lists page, sort and search on the server (api/db/documents.ts list_sender_documents_page).
-- Each sort key in the list's own order within one sender, ties by id, so the first page of the busiest sender
-- (20,000 documents) is a short walk of one index instead of a sort of every row: for what the sender sent, and
-- for what representatives shared with a supervising attorney. The delete date sorts as the upload time.
create index documents_sender_title_idx on documents (sender_id, (lower(title) collate "C"), id);
create index documents_sender_pages_idx on documents (sender_id, pages, id);
create index documents_sender_uploaded_id_idx on documents (sender_id, uploaded_at, id);
create index documents_supervisor_title_idx on documents (supervising_attorney_id, (lower(title) collate "C"), id)
  where supervising_attorney_id is not null;
create index documents_supervisor_pages_idx on documents (supervising_attorney_id, pages, id)
  where supervising_attorney_id is not null;
create index documents_supervisor_uploaded_id_idx on documents (supervising_attorney_id, uploaded_at, id)
  where supervising_attorney_id is not null;
