-- The digest of what a tenant uploaded (a PDF's bytes, or the photos of a
-- copy's pages in order): the same copy uploaded again is found by it and
-- reused. An image is stored as a PDF whose bytes are not the upload's, so
-- the stored object's sha256 cannot serve. NULL for issued documents.
ALTER TABLE files ADD COLUMN upload_sha256 text;
CREATE INDEX files_nest_upload_sha256 ON files (nest_id, upload_sha256) WHERE upload_sha256 IS NOT NULL;
