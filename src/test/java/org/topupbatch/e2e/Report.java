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
        try (Reader r = Files.newBufferedReader(csv, StandardCharsets.UTF_8); CSVParser p = format.parse(r)) {
            for (CSVRecord rec : p) {
                Map<String, String> row = new LinkedHashMap<>();
                p.getHeaderNames().forEach(h -> row.put(h, rec.get(h)));
                rows.add(row);
            }
            return new Report(p.getHeaderNames(), rows, summary);
        }
    }

    Map<String, String> byLine(int line) {
        return rows.stream().filter(r -> r.get("line").equals(Integer.toString(line))).findFirst()
                .orElseThrow(() -> new AssertionError("no report row for input line " + line));
    }

    long count(String status) {
        return rows.stream().filter(r -> r.get("status").equals(status)).count();
    }
}
