package org.topupbatch.campaign;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVParser;
import org.apache.commons.csv.CSVRecord;
import org.topupbatch.sandbox.LedgerEntry;
import org.topupbatch.sandbox.SandboxProvider;

/**
 * The promises, checked from the outside once every batch is reported: the sandbox's ledger against
 * the input files, the reports and the archive. Returns anomalies as sentences instead of failing at
 * the first, so one run shows everything that went wrong.
 */
final class LedgerAudit {

    private final SandboxProvider sandbox;
    private final ProductProcess product;
    private final List<String> anomalies = new ArrayList<>();
    private int ordersChecked;

    private LedgerAudit(SandboxProvider sandbox, ProductProcess product) {
        this.sandbox = sandbox;
        this.product = product;
    }

    record Result(List<String> anomalies, int ordersChecked) {
    }

    static Result check(SandboxProvider sandbox, ProductProcess product, Collection<CampaignBatch> batches) {
        LedgerAudit audit = new LedgerAudit(sandbox, product);
        audit.run(batches);
        return new Result(List.copyOf(audit.anomalies), audit.ordersChecked);
    }

    private void run(Collection<CampaignBatch> batches) {
        Map<String, LedgerEntry> ledger = new HashMap<>();
        for (LedgerEntry e : sandbox.ledger()) {
            if (ledger.put(e.refId(), e) != null) {
                anomalies.add("ref_id " + e.refId() + " ordered twice");
            }
        }
        // a repeat is ordered only when the rows it repeats were not delivered: judged on the ledger
        Collection<CampaignBatch> judged = batches.stream()
                .map(b -> b.judged(ref -> ledger.containsKey(ref) ? ledger.get(ref).status() : null)).toList();
        long repeats = judged.stream().mapToLong(b -> b.earlierOfRepeat().size()).sum();
        long repeatsOrdered = judged.stream().mapToLong(b -> b.earlierOfRepeat().keySet().stream()
                .filter(b.acceptedByRef()::get).count()).sum();
        System.out.println("repeats in the files: " + repeats + ", of which " + repeatsOrdered
                + " to be ordered (the rows they repeat not delivered), the others rejected");
        run(judged, ledger);
    }

    private void run(Collection<CampaignBatch> batches, Map<String, LedgerEntry> ledger) {
        Set<String> acceptedRefs = new HashSet<>();
        batches.forEach(b -> b.acceptedByRef().forEach((ref, ok) -> {
            if (ok) {
                acceptedRefs.add(ref);
            }
        }));
        for (String ref : ledger.keySet()) {
            if (!acceptedRefs.contains(ref)) {
                anomalies.add("order " + ref + " in the ledger comes from no accepted input row");
            }
        }
        checkReportsFolder();
        checkInbox();
        for (CampaignBatch batch : batches) {
            checkArchived(batch);
            checkReport(batch, ledger);
        }
        var stats = sandbox.stats();
        int limit = sandbox.config().tier().limitPerMinute();
        if (stats.rateLimited() != 0) {
            anomalies.add("the provider answered 429 (rate limit) " + stats.rateLimited() + " times");
        }
        if (stats.busiestWindow() > limit) {
            anomalies.add("the busiest 60 s window held " + stats.busiestWindow() + " requests, over the limit " + limit);
        }
    }

    /** Only complete reports may be visible: no temporary or other file. */
    private void checkReportsFolder() {
        try (Stream<Path> files = Files.list(product.reports)) {
            files.map(p -> p.getFileName().toString())
                    .filter(n -> !n.endsWith(".result.csv") && !n.endsWith(".summary.json"))
                    .forEach(n -> anomalies.add("reports/ holds " + n + ", which is not a report (half-written?)"));
        } catch (IOException e) {
            anomalies.add("reports/ cannot be listed: " + e);
        }
    }

    private void checkInbox() {
        try (Stream<Path> files = Files.list(product.inbox)) {
            files.forEach(p -> anomalies.add("inbox still holds " + p.getFileName()));
        } catch (IOException e) {
            anomalies.add("inbox cannot be listed: " + e);
        }
    }

    /** No input lost: the file is archived byte for byte. */
    private void checkArchived(CampaignBatch batch) {
        List<Path> copies;
        try (Stream<Path> files = Files.exists(product.archive) ? Files.list(product.archive) : Stream.empty()) {
            copies = files.filter(p -> p.getFileName().toString().startsWith(batch.baseName() + ".")).toList();
        } catch (IOException e) {
            anomalies.add("archive cannot be listed: " + e);
            return;
        }
        if (copies.size() != 1) {
            anomalies.add(batch.fileName() + " is archived " + copies.size() + " times: " + copies);
            return;
        }
        try {
            if (!Files.readString(copies.get(0), StandardCharsets.UTF_8).equals(batch.content())) {
                anomalies.add(batch.fileName() + " archived with other content: " + copies.get(0));
            }
        } catch (IOException e) {
            anomalies.add(batch.fileName() + " archive unreadable: " + e);
        }
    }

    private void checkReport(CampaignBatch batch, Map<String, LedgerEntry> ledger) {
        Path csv = product.reports.resolve(batch.baseName() + ".result.csv");
        Path json = product.reports.resolve(batch.baseName() + ".summary.json");
        if (!Files.exists(csv) || !Files.exists(json)) {
            anomalies.add(batch.fileName() + " is not reported (" + (Files.exists(csv) ? "" : csv.getFileName() + " ")
                    + (Files.exists(json) ? "" : json.getFileName()) + " missing)");
            return;
        }
        List<Map<String, String>> rows;
        JsonNode summary;
        try {
            rows = readCsv(csv);
            summary = new ObjectMapper().readTree(json.toFile());
        } catch (IOException | RuntimeException e) {
            anomalies.add(batch.fileName() + ": report does not parse: " + e);
            return;
        }
        if (rows.size() != batch.rows()) {
            anomalies.add(batch.fileName() + ": report has " + rows.size() + " rows, the input " + batch.rows());
        }
        Map<String, Long> counts = new HashMap<>();
        long charged = 0;
        Set<String> seen = new HashSet<>();
        List<String> refs = batch.refs();
        for (int i = 0; i < rows.size(); i++) {
            Map<String, String> row = rows.get(i);
            String ref = row.get("ref_id");
            String status = row.get("status");
            String where = batch.fileName() + " line " + row.get("line") + " (" + ref + ")";
            counts.merge(status, 1L, Long::sum);
            if (i < refs.size() && (!refs.get(i).equals(ref) || !row.get("line").equals(Integer.toString(i + 2)))) {
                anomalies.add(where + ": report row " + (i + 1) + " should be line " + (i + 2) + " " + refs.get(i));
            }
            if (!seen.add(ref)) {
                anomalies.add(where + ": reported twice");
            }
            Boolean accepted = batch.acceptedByRef().get(ref);
            LedgerEntry order = ledger.get(ref);
            if (accepted == null) {
                anomalies.add(where + ": ref_id not in the input");
            } else if (!accepted) {
                if (!status.equals("rejected")) {
                    anomalies.add(where + ": should be rejected, reported " + status);
                }
                if (order != null) {
                    anomalies.add(where + ": rejected row was ordered");
                }
            } else {
                ordersChecked++;
                if (order == null && leftUnsentByAGuard(status, row.get("message"))) {
                    continue;
                }
                if (order == null) {
                    anomalies.add(where + ": accepted row never ordered (reported " + status + ": " + row.get("message") + ")");
                    continue;
                }
                if (!order.status().equals("success") && !order.status().equals("failed")) {
                    anomalies.add(where + ": the provider's order is still " + order.status() + " at the end");
                }
                if (!status.equals(order.status())) {
                    anomalies.add(where + ": reported " + status + ", the provider says " + order.status());
                }
                String serial = order.serialNumber() == null ? "" : order.serialNumber();
                if (!row.get("serial_number").equals(serial)) {
                    anomalies.add(where + ": serial " + row.get("serial_number") + ", the provider's " + serial);
                }
                if (!row.get("price").equals(Long.toString(order.price()))) {
                    anomalies.add(where + ": price " + row.get("price") + ", the provider's " + order.price());
                }
            }
            if ((status.equals("success") || status.equals("pending")) && !row.get("price").isEmpty()) {
                charged += Long.parseLong(row.get("price"));
            }
        }
        for (String field : List.of("success", "failed", "pending", "rejected")) {
            expect(batch, summary, field, counts.getOrDefault(field, 0L));
        }
        expect(batch, summary, "rows", rows.size());
        expect(batch, summary, "submitted", counts.getOrDefault("success", 0L) + counts.getOrDefault("failed", 0L)
                + counts.getOrDefault("pending", 0L));
        expect(batch, summary, "charged", charged);
    }

    /**
     * An accepted row that the money guards or the operator kept from being ordered, and say so:
     * rejected at sending for its price or after its product's outage, rejected at intake because the
     * product was listed unavailable then, refused by the provider as unavailable (no order, reported
     * failed), or cancelled by the operator.
     */
    static boolean leftUnsentByAGuard(String status, String message) {
        String m = message == null ? "" : message;
        return status.equals("rejected") && (m.startsWith("price ") || m.startsWith("unavailable since ")
                || m.endsWith("is not available now") || m.startsWith("cancelled by the operator"))
                || status.equals("failed") && m.contains("PRODUCT_UNAVAILABLE");
    }

    private void expect(CampaignBatch batch, JsonNode summary, String field, long value) {
        JsonNode n = summary.get(field);
        if (n == null || n.asLong() != value) {
            anomalies.add(batch.fileName() + ": summary " + field + " is " + n + ", the report adds up to " + value);
        }
    }

    static List<Map<String, String>> readCsv(Path csv) throws IOException {
        CSVFormat format = CSVFormat.RFC4180.builder().setHeader().setSkipHeaderRecord(true).build();
        List<Map<String, String>> rows = new ArrayList<>();
        try (Reader r = Files.newBufferedReader(csv, StandardCharsets.UTF_8); CSVParser p = format.parse(r)) {
            for (CSVRecord rec : p) {
                Map<String, String> row = new LinkedHashMap<>();
                p.getHeaderNames().forEach(h -> row.put(h, rec.get(h)));
                rows.add(row);
            }
        }
        return rows;
    }
}
