package org.topupbatch.intake;

import java.util.Iterator;
import java.util.NoSuchElementException;

/**
 * The rows of a batch file, one record at a time: blank records skipped, each row numbered in file
 * order, a record that cannot be parsed turned into a malformed row naming its line. Reading stops
 * after a parse error that swallowed the rest of the file.
 */
final class BatchRowIterator implements Iterator<BatchRow> {

    private final CsvRecords records;
    private final BatchColumns columns;
    private final char delimiter;
    private BatchRow next;
    private boolean done;
    private int seq;

    BatchRowIterator(CsvRecords records, BatchColumns columns, char delimiter) {
        this.records = records;
        this.columns = columns;
        this.delimiter = delimiter;
    }

    @Override
    public boolean hasNext() {
        if (next == null && !done) {
            next = advance();
            if (next == null) {
                done = true;
            }
        }
        return next != null;
    }

    @Override
    public BatchRow next() {
        if (!hasNext()) {
            throw new NoSuchElementException();
        }
        BatchRow row = next;
        next = null;
        return row;
    }

    private BatchRow advance() {
        while (true) {
            CsvRecords.Read record;
            try {
                record = records.next();
            } catch (CsvParseException e) {
                if (!e.resumable()) {
                    done = true;
                }
                return columns.unparsed(seq++, e);
            }
            if (record == null) {
                return null;
            }
            if (CsvRecords.allBlank(record.fields())) {
                continue;
            }
            if (record.unterminated() && record.fields().size() < columns.headers().size()) {
                // an interrupted export or upload: the last value may be cut too (a phone number), so never order it
                return columns.cutShort(seq++, record.line(), record.fields());
            }
            return columns.row(seq++, record.line(), record.fields(), delimiter);
        }
    }
}
