package org.topupbatch.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVParser;
import org.apache.commons.csv.CSVRecord;

/** A batch's report as an ERP would read it back. */
record Report(List<String> header, List<Map<String, String>> rows, JsonNode summary) {

    static Report read(Path reports, String name, char delimiter) throws IOException {
        JsonNode summary = new ObjectMapper().readTree(reports.resolve(name + ".summary.json").toFile());
        Path csv = reports.resolve(name + ".result.csv");
        if (!Files.exists(csv)) {
            return new Report(List.of(), List.of(), summary);
        }
        CSVFormat format = CSVFormat.RFC4180.builder().setDelimiter(delimiter).setHeader().setSkipHeaderRecord(true).build();
        List<Map<String, String>> rows = new ArrayList<>();
        try (Reader r = new java.io.StringReader(text(Files.readAllBytes(csv))); CSVParser p = format.parse(r)) {
            for (CSVRecord rec : p) {
                Map<String, String> row = new LinkedHashMap<>();
                p.getHeaderNames().forEach(h -> row.put(h, rec.get(h)));
                rows.add(row);
            }
            return new Report(p.getHeaderNames(), rows, summary);
        }
    }

    /** The report's text as an ERP's reader takes it: a byte-order mark decides UTF-8 or UTF-16, else UTF-8. */
    static String text(byte[] bytes) {
        if (bytes.length >= 3 && bytes[0] == (byte) 0xEF && bytes[1] == (byte) 0xBB && bytes[2] == (byte) 0xBF) {
            return new String(bytes, 3, bytes.length - 3, StandardCharsets.UTF_8);
        }
        if (bytes.length >= 2 && bytes[0] == (byte) 0xFF && bytes[1] == (byte) 0xFE) {
            return new String(bytes, 2, bytes.length - 2, StandardCharsets.UTF_16LE);
        }
        if (bytes.length >= 2 && bytes[0] == (byte) 0xFE && bytes[1] == (byte) 0xFF) {
            return new String(bytes, 2, bytes.length - 2, StandardCharsets.UTF_16BE);
        }
        return new String(bytes, StandardCharsets.UTF_8);
    }

    Map<String, String> byLine(int line) {
        return rows.stream().filter(r -> r.get("line").equals(Integer.toString(line))).findFirst()
                .orElseThrow(() -> new AssertionError("no report row for input line " + line));
    }

    long count(String status) {
        return rows.stream().filter(r -> r.get("status").equals(status)).count();
    }
}
