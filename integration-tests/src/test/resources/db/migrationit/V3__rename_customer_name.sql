ALTER TABLE customer RENAME COLUMN name TO full_name;
