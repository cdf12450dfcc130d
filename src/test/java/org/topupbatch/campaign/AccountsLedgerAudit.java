package org.topupbatch.campaign;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.Reader;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVParser;
import org.apache.commons.csv.CSVRecord;
import org.topupbatch.sandbox.LedgerEntry;

/**
 * The promises of docs/accounts-and-dialects.md#several-accounts, checked from the outside once every batch is reported:
 * the ledgers of all accounts against the input rows and the reports. Pure: it is given the batches,
 * each account's ledger (in the order of {@code topup.providers}) and the reports, and returns its
 * anomalies as sentences (all of them, not the first) with a few figures. {@link AccountsLedgerAuditTest}
 * shows it catching planted faults.
 *
 * <ul>
 *   <li>no ref_id twice within one ledger; every order in a ledger belongs to a row of the batches,
 *       under one of its ref_ids (REF, REF-F2, ... up to the number of accounts), for its product and customer;</li>
 *   <li>a row ends in at most one order across all accounts and ref_ids (more than one not failed: ordered
 *       twice; more than one at all: an order was made and the row moved on all the same);</li>
 *   <li>every row of the input is reported once, at its line, final: {@code success}, {@code failed}, or
 *       {@code rejected}, the latter two with a message; a row the input meant to be rejected is
 *       rejected and never ordered;</li>
 *   <li>the report's {@code provider} and {@code provider_ref_id} (right after {@code message}) name the
 *       account and ref_id of the row's order, whose status, serial and price are the reported ones; a
 *       success has its order; an order of a row is never hidden behind a refusal or a rejection; every
 *       order is final at the end;</li>
 *   <li>the summary adds up to the report, also per account.</li>
 * </ul>
 */
final class AccountsLedgerAudit {

    /** One batch's report as read: the header of the result CSV, its rows, and the summary (null when missing). */
    record Report(List<String> header, List<Map<String, String>> rows, JsonNode summary) {
    }

    /**
     * @param ordersByAccount  orders in each account's ledger
     * @param fallbackOrders   of them, under a fallback ref_id (REF-F2, ...)
     * @param rowsByStatus     the reported rows by status, the rows the input meant to reject left out
     * @param movedRows        rows reported at an account under a fallback ref_id (moved to their next account)
     * @param unorderedRows    accepted rows that ended without an order (refused, failed at creation or rejected unsent)
     */
    record Figures(Map<String, Integer> ordersByAccount, Map<String, Integer> fallbackOrders,
                   Map<String, Integer> rowsByStatus, int rowsChecked, int movedRows, int unorderedRows) {
    }

    record Result(List<String> anomalies, Figures figures) {
    }

    private record InputRow(String batch, int line, String ref, String product, String customer, boolean accepted) {
    }

    private record Order(String account, LedgerEntry entry) {
        @Override
        public String toString() {
            return entry.refId() + " at " + account + " (" + entry.status() + ", " + entry.productSku() + " for "
                    + entry.customerNo() + ", " + entry.price() + ")";
        }
    }

    private final List<String> accounts;
    private final List<String> anomalies = new ArrayList<>();
    private final Map<String, Map<String, LedgerEntry>> byAccount = new LinkedHashMap<>();
    private final Map<String, InputRow> ownerOfRef = new HashMap<>();
    private final Map<String, Integer> ordersByAccount = new TreeMap<>();
    private final Map<String, Integer> fallbackOrders = new TreeMap<>();
    private final Map<String, Integer> rowsByStatus = new TreeMap<>();
    private int rowsChecked;
    private int movedRows;
    private int unorderedRows;

    private AccountsLedgerAudit(List<String> accounts) {
        this.accounts = accounts;
    }

    /**
     * @param ledgers each account's ledger, in the order of {@code topup.providers}
     * @param reports each batch's report by its file's base name; a batch without one is an anomaly
     */
    static Result check(Collection<CampaignBatch> batches, Map<String, List<LedgerEntry>> ledgers,
                        Map<String, Report> reports) {
        AccountsLedgerAudit audit = new AccountsLedgerAudit(List.copyOf(ledgers.keySet()));
        audit.run(batches, ledgers, reports);
        return new Result(List.copyOf(audit.anomalies), new Figures(audit.ordersByAccount, audit.fallbackOrders,
                audit.rowsByStatus, audit.rowsChecked, audit.movedRows, audit.unorderedRows));
    }

    /** The ref_ids a row may be ordered under: its own at its first account, REF-F2 at its second, ... */
    List<String> candidateRefs(String ref) {
        List<String> refs = new ArrayList<>();
        refs.add(ref);
        for (int k = 2; k <= accounts.size(); k++) {
            refs.add(ref + "-F" + k);
        }
        return refs;
    }

    private void run(Collection<CampaignBatch> batches, Map<String, List<LedgerEntry>> ledgers, Map<String, Report> reports) {
        for (Map.Entry<String, List<LedgerEntry>> e : ledgers.entrySet()) {
            Map<String, LedgerEntry> refs = new HashMap<>();
            for (LedgerEntry entry : e.getValue()) {
                LedgerEntry before = refs.put(entry.refId(), entry);
                if (before != null) {
                    anomalies.add("ref_id " + entry.refId() + " is in " + e.getKey() + "'s ledger twice: " + before + " and " + entry);
                }
                ordersByAccount.merge(e.getKey(), 1, Integer::sum);
                if (entry.refId().matches(".*-F\\d+")) {
                    fallbackOrders.merge(e.getKey(), 1, Integer::sum);
                }
            }
            fallbackOrders.putIfAbsent(e.getKey(), 0);
            ordersByAccount.putIfAbsent(e.getKey(), 0);
            byAccount.put(e.getKey(), refs);
        }
        // a repeat is ordered only when the rows it repeats were not delivered (at any account): judged on the ledgers
        batches = batches.stream().map(b -> b.judged(ref -> candidateRefs(ref).stream()
                .flatMap(r -> byAccount.values().stream().map(m -> m.get(r))).filter(java.util.Objects::nonNull)
                .map(LedgerEntry::status).filter("success"::equals).findFirst().orElse(null))).toList();
        Map<String, List<InputRow>> inputs = new LinkedHashMap<>();
        for (CampaignBatch batch : batches) {
            List<InputRow> rows = inputRows(batch);
            inputs.put(batch.fileName(), rows);
            for (InputRow row : rows) {
                for (String ref : candidateRefs(row.ref())) {
                    InputRow before = ownerOfRef.put(ref, row);
                    if (before != null) {
                        anomalies.add("campaign fault: ref_id " + ref + " is in " + before.batch() + " and " + row.batch());
                    }
                }
            }
        }
        // every order belongs to a row, for that row's product and customer
        byAccount.forEach((account, refs) -> refs.values().forEach(entry -> {
            InputRow row = ownerOfRef.get(entry.refId());
            if (row == null) {
                anomalies.add("order " + new Order(account, entry) + " belongs to no row of the batches");
            } else if (!entry.productSku().equals(row.product()) || entry.customerNo() == null
                    || !entry.customerNo().contains(row.customer())) {
                anomalies.add("order " + new Order(account, entry) + " is not for its row " + row.ref() + " of "
                        + row.batch() + " (" + row.product() + " for " + row.customer() + ")");
            }
            if (!entry.status().equals("success") && !entry.status().equals("failed")) {
                anomalies.add("order " + new Order(account, entry) + " is still " + entry.status() + " at the end");
            }
        }));
        for (CampaignBatch batch : batches) {
            checkBatch(batch, inputs.get(batch.fileName()), reports.get(batch.baseName()));
        }
    }

    private void checkBatch(CampaignBatch batch, List<InputRow> inputs, Report report) {
        Map<String, Map<String, String>> reported = new HashMap<>();
        if (report == null) {
            anomalies.add(batch.fileName() + " is not reported (result or summary missing)");
        } else {
            checkHeader(batch, report.header());
            for (int i = 0; i < report.rows().size(); i++) {
                Map<String, String> row = report.rows().get(i);
                String ref = row.getOrDefault("ref_id", "");
                if (reported.put(ref, row) != null) {
                    anomalies.add(batch.fileName() + ": " + ref + " is reported twice");
                }
                if (i < inputs.size() && (!inputs.get(i).ref().equals(ref)
                        || !Integer.toString(inputs.get(i).line()).equals(row.get("line")))) {
                    anomalies.add(batch.fileName() + ": report row " + (i + 1) + " is line " + row.get("line") + " " + ref
                            + ", the input's is line " + inputs.get(i).line() + " " + inputs.get(i).ref());
                }
            }
            if (report.rows().size() != inputs.size()) {
                anomalies.add(batch.fileName() + ": the report has " + report.rows().size() + " rows, the input " + inputs.size());
            }
        }
        for (InputRow input : inputs) {
            checkRow(input, report == null ? null : reported.get(input.ref()), report == null);
        }
        if (report != null) {
            checkSummary(batch, report);
        }
    }

    private void checkHeader(CampaignBatch batch, List<String> header) {
        int message = header.indexOf("message");
        if (message < 0 || header.indexOf("provider") != message + 1 || header.indexOf("provider_ref_id") != message + 2) {
            anomalies.add(batch.fileName() + ": the report's header has no provider, provider_ref_id right after message: " + header);
        }
    }

    private void checkRow(InputRow input, Map<String, String> row, boolean noReport) {
        String where = input.batch() + " line " + input.line() + " (" + input.ref() + ")";
        List<Order> orders = new ArrayList<>();
        for (String account : accounts) {
            for (String ref : candidateRefs(input.ref())) {
                LedgerEntry e = byAccount.get(account).get(ref);
                if (e != null) {
                    orders.add(new Order(account, e));
                }
            }
        }
        long notFailed = orders.stream().filter(o -> !o.entry().status().equals("failed")).count();
        if (notFailed > 1) {
            anomalies.add(where + ": ordered twice: " + notFailed + " orders not failed across the accounts: " + orders);
        } else if (orders.size() > 1) {
            anomalies.add(where + ": " + orders.size() + " orders across the accounts (a row ends in at most one order;"
                    + " an order was made and the row was placed again all the same): " + orders);
        }
        if (!input.accepted()) {
            if (!orders.isEmpty()) {
                anomalies.add(where + ": a row to be rejected was ordered: " + orders);
            }
            if (row != null && !"rejected".equals(row.get("status"))) {
                anomalies.add(where + ": should be rejected, reported " + row.get("status") + ": " + row);
            }
            if (row == null && !noReport) {
                anomalies.add(where + ": missing from the report");
            }
            return;
        }
        rowsChecked++;
        if (row == null) {
            if (!noReport) {
                anomalies.add(where + ": lost: missing from the report; its orders: " + orders);
            }
            return;
        }
        String status = row.getOrDefault("status", "");
        String message = row.getOrDefault("message", "");
        String account = row.getOrDefault("provider", "");
        String providerRef = row.getOrDefault("provider_ref_id", "");
        rowsByStatus.merge(status, 1, Integer::sum);
        if (providerRef.matches(".*-F\\d+") && !status.equals("rejected")) {
            movedRows++;
        }
        if (orders.isEmpty()) {
            unorderedRows++;
        }
        Order named = orders.stream().filter(o -> o.account().equals(account) && o.entry().refId().equals(providerRef))
                .findFirst().orElse(null);
        switch (status) {
            case "success" -> {
                if (named == null) {
                    anomalies.add(where + ": reported success at " + account + " as " + providerRef
                            + ", but that account holds no such order; the row's orders: " + orders + "; report: " + row);
                }
            }
            case "failed" -> {
                if (message.isBlank()) {
                    anomalies.add(where + ": reported failed without a message: " + row);
                }
                if (!orders.isEmpty() && named == null) {
                    anomalies.add(where + ": reported failed at " + account + " as " + providerRef
                            + " while the row has an order elsewhere: " + orders + "; report: " + row);
                }
                if (orders.isEmpty() && !account.isEmpty() && !accounts.contains(account)) {
                    anomalies.add(where + ": provider '" + account + "' is not an account: " + row);
                }
            }
            case "rejected" -> {
                if (message.isBlank()) {
                    anomalies.add(where + ": reported rejected without a message: " + row);
                }
                if (!orders.isEmpty()) {
                    anomalies.add(where + ": reported rejected, but it was ordered: " + orders + "; report: " + row);
                }
                if (!account.isEmpty() || !providerRef.isEmpty()) {
                    anomalies.add(where + ": rejected, yet provider/provider_ref_id are not empty: " + row);
                }
            }
            default -> anomalies.add(where + ": not final in the report (" + status + "): " + row + "; its orders: " + orders);
        }
        if (named != null) {
            LedgerEntry e = named.entry();
            if (!status.equals(e.status())) {
                anomalies.add(where + ": reported " + status + ", " + named.account() + " says " + e.status() + " for " + e.refId());
            }
            String serial = e.serialNumber() == null ? "" : e.serialNumber();
            if (!row.getOrDefault("serial_number", "").equals(serial)) {
                anomalies.add(where + ": serial " + row.get("serial_number") + ", " + named.account() + "'s " + serial);
            }
            if (!row.getOrDefault("price", "").equals(Long.toString(e.price()))) {
                anomalies.add(where + ": price " + row.get("price") + ", " + named.account() + "'s " + e.price());
            }
        }
    }

    private void checkSummary(CampaignBatch batch, Report report) {
        JsonNode s = report.summary();
        if (s == null) {
            anomalies.add(batch.fileName() + ": no summary");
            return;
        }
        Map<String, Long> counts = new HashMap<>();
        Map<String, Map<String, Long>> perAccount = new HashMap<>();
        for (Map<String, String> row : report.rows()) {
            String status = row.getOrDefault("status", "");
            counts.merge(status, 1L, Long::sum);
            if (!status.equals("rejected")) {
                perAccount.computeIfAbsent(row.getOrDefault("provider", ""), a -> new HashMap<>()).merge(status, 1L, Long::sum);
            }
        }
        expect(batch, s, "rows", report.rows().size());
        for (String field : List.of("success", "failed", "pending", "rejected")) {
            expect(batch, s, field, counts.getOrDefault(field, 0L));
        }
        JsonNode accountsNode = s.get("accounts");
        if (accountsNode == null || !accountsNode.isObject()) {
            anomalies.add(batch.fileName() + ": the summary has no accounts: " + s);
            return;
        }
        accountsNode.fieldNames().forEachRemaining(name -> {
            if (!accounts.contains(name)) {
                anomalies.add(batch.fileName() + ": the summary's accounts name '" + name + "', not an account: " + s);
            }
        });
        for (String account : accounts) {
            // an account none of the batch's rows went to may be left out of the summary
            JsonNode a = accountsNode.path(account);
            for (String field : List.of("success", "failed")) {
                long reported = perAccount.getOrDefault(account, Map.of()).getOrDefault(field, 0L);
                long said = a.isMissingNode() ? 0 : a.path(field).asLong(-1);
                if (said != reported) {
                    anomalies.add(batch.fileName() + ": summary accounts." + account + "." + field + " is " + a.path(field)
                            + ", the report has " + reported + " rows " + field + " there");
                }
            }
        }
    }

    private void expect(CampaignBatch batch, JsonNode summary, String field, long value) {
        JsonNode n = summary.get(field);
        if (n == null || n.asLong() != value) {
            anomalies.add(batch.fileName() + ": summary " + field + " is " + n + ", the report adds up to " + value);
        }
    }

    private static List<InputRow> inputRows(CampaignBatch batch) {
        List<InputRow> rows = new ArrayList<>();
        try (CSVParser p = CSVFormat.RFC4180.builder().setHeader().setSkipHeaderRecord(true).build()
                .parse(new StringReader(batch.content()))) {
            int line = 2;
            for (CSVRecord r : p) {
                String ref = r.get("ref_id");
                Boolean accepted = batch.acceptedByRef().get(ref);
                rows.add(new InputRow(batch.fileName(), line++, ref, r.get("product_sku"), r.get("customer_no"),
                        accepted != null && accepted));
            }
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        return rows;
    }

    /** The reports of the batches in {@code folder}, by base name; a batch without both files is left out. */
    static Map<String, Report> readReports(Path folder, Collection<CampaignBatch> batches, List<String> problems) {
        Map<String, Report> reports = new HashMap<>();
        for (CampaignBatch batch : batches) {
            Path csv = folder.resolve(batch.baseName() + ".result.csv");
            Path json = folder.resolve(batch.baseName() + ".summary.json");
            if (!Files.exists(csv) || !Files.exists(json)) {
                continue;
            }
            try {
                reports.put(batch.baseName(), readReport(csv, new ObjectMapper().readTree(json.toFile())));
            } catch (IOException | RuntimeException e) {
                problems.add(batch.fileName() + ": the report does not parse: " + e);
            }
        }
        return reports;
    }

    static Report readReport(Path csv, JsonNode summary) throws IOException {
        try (Reader r = Files.newBufferedReader(csv, StandardCharsets.UTF_8)) {
            return parseReport(r, summary);
        }
    }

    static Report parseReport(Reader csv, JsonNode summary) throws IOException {
        CSVFormat format = CSVFormat.RFC4180.builder().setHeader().setSkipHeaderRecord(true).build();
        List<Map<String, String>> rows = new ArrayList<>();
        try (CSVParser p = format.parse(csv)) {
            for (CSVRecord rec : p) {
                Map<String, String> row = new LinkedHashMap<>();
                p.getHeaderNames().forEach(h -> row.put(h, rec.isMapped(h) && rec.isSet(h) ? rec.get(h) : ""));
                rows.add(row);
            }
            return new Report(List.copyOf(p.getHeaderNames()), rows, summary);
        }
    }
}
