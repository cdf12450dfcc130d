-- The text encoding a batch file came in (e.g. UTF-8, UTF-16LE+BOM, windows-1252), so that its
-- report goes back in the same encoding. NULL for batches recorded before: they were UTF-8.
ALTER TABLE batch ADD COLUMN encoding VARCHAR(40);
