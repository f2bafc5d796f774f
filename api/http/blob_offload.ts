/**
 * BLOB_OFFLOAD=nginx: what the API and the nginx in front agree on. The API answers a document it has
 * authorized and audited with `X-Accel-Redirect: /_blobs/ab/cd/<sha256>`; nginx's `internal` location of that
 * name (deploy/nginx/portal-blobs.conf) maps it onto the fs store's folder and sends the file. nginx acts on
 * the header only in an upstream's answer, and the location answers no request from outside (404).
 */
export const OFFLOAD_HEADER = 'X-Accel-Redirect';
export const OFFLOAD_LOCATION = '/_blobs/';
