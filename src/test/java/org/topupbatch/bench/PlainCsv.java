package org.topupbatch.bench;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVRecord;

/** The parse-only baseline: a plain CSV reader counting records, no checks, nothing stored. */
final class PlainCsv {

    private PlainCsv() {
    }

    static long count(Path csv) throws IOException {
        long rows = 0;
        try (Reader in = Files.newBufferedReader(csv, StandardCharsets.UTF_8)) {
            for (CSVRecord record : CSVFormat.DEFAULT.builder().setHeader().setSkipHeaderRecord(true).get().parse(in)) {
                rows += record.size() > 0 ? 1 : 0;
            }
        }
        return rows;
    }
}
