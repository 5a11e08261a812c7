DROP INDEX files_nest_upload_sha256;
ALTER TABLE files DROP COLUMN upload_sha256;
