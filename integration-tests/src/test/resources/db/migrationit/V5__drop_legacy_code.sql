ALTER TABLE customer DROP COLUMN legacy_code;
