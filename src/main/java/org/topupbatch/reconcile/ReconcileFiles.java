package org.topupbatch.reconcile;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVPrinter;
import org.topupbatch.report.FormulaGuard;
import org.topupbatch.report.ReportWriter;

/**
 * Writes {@code reconcile-DAY.csv} (one line per exception) and {@code reconcile-DAY.summary.json}
 * into the reports folder, each atomically; with several accounts one of each for all of them. An earlier reconciliation of the same day is kept,
 * renamed to {@code reconcile-DAY.earlier-<yyyyMMdd-HHmmss>.csv / .summary.json}.
 */
public final class ReconcileFiles {

    public static final List<String> HEADER = List.of("kind", "ref_id", "product_sku", "customer_no", "created_at", "batch",
            "line", "journal_status", "provider_status", "journal_price", "provider_price", "amount", "message");
    /** Several accounts: the account first, then the single account's columns. */
    public static final List<String> ACCOUNTS_HEADER = java.util.stream.Stream.concat(java.util.stream.Stream.of("account"),
            HEADER.stream()).toList();
    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss").withZone(ZoneOffset.UTC);
    static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    /** The two files written. */
    public record Written(Path csv, Path summary) {
    }

    private final Path reports;

    public ReconcileFiles(Path reports) {
        this.reports = reports;
    }

    Written write(Reconciliation result) throws IOException {
        return write(result.summary().day(), HEADER, printer -> {
            for (ReconcileLine l : result.lines()) {
                printer.printRecord(cells(l));
            }
        }, json(result.summary()));
    }

    /**
     * The list of accounts' files: those of {@link #write(Reconciliation)} for the one account of
     * topup.base-url; with several accounts, one {@code reconcile-DAY.csv} whose first column names each line's account
     * ({@link #ACCOUNTS_HEADER}), and one summary with the day's totals and each account's part under
     * {@code accounts}, in the order of topup.providers (docs/reconcile.md#reconcile-with-the-provider).
     */
    public Written write(AccountsSummary result) throws IOException {
        if (result.lone()) {
            return write(result.accounts().get(0).result());
        }
        return write(result.day(), ACCOUNTS_HEADER, printer -> {
            for (AccountReconciliation account : result.accounts()) {
                if (account.reconciled()) {
                    for (ReconcileLine l : account.result().lines()) {
                        List<Object> cells = new java.util.ArrayList<>();
                        cells.add(FormulaGuard.escape(account.account()));
                        cells.addAll(cells(l));
                        printer.printRecord(cells);
                    }
                }
            }
        }, result.json());
    }

    private interface Lines {
        void print(CSVPrinter printer) throws IOException;
    }

    private Written write(String day, List<String> header, Lines lines, ObjectNode summaryJson) throws IOException {
        Files.createDirectories(reports);
        String base = "reconcile-" + day;
        Path csv = reports.resolve(base + ".csv");
        Path summary = reports.resolve(base + ".summary.json");
        keepEarlier(base, csv, summary);
        ReportWriter.writeAtomically(csv, out -> {
            Writer writer = new OutputStreamWriter(out, StandardCharsets.UTF_8);
            CSVPrinter printer = new CSVPrinter(writer, CSVFormat.RFC4180);
            printer.printRecord(header);
            lines.print(printer);
            printer.flush();
        });
        ReportWriter.writeAtomically(summary, out -> out.write(JSON.writeValueAsBytes(summaryJson)));
        return new Written(csv, summary);
    }

    private static List<Object> cells(ReconcileLine l) {
        return java.util.Arrays.asList(l.kind().wire(), FormulaGuard.escape(l.refId()), FormulaGuard.escape(l.productSku()),
                FormulaGuard.escape(l.customerNo()), l.createdAt() == null ? "" : l.createdAt().toString(),
                FormulaGuard.escape(l.batch()), text(l.line()), text(l.journalStatus()), text(l.providerStatus()),
                text(l.journalPrice()), text(l.providerPrice()), text(l.amount()), FormulaGuard.escape(l.message()));
    }

    static ObjectNode json(ReconcileSummary s) {
        ObjectNode n = JSON.createObjectNode();
        n.put("day", s.day());
        n.put("zone", s.zone());
        n.put("provider_orders", s.providerOrders());
        n.put("journal_orders", s.journalOrders());
        n.put("matched", s.matched());
        ObjectNode exceptions = n.putObject("exceptions");
        s.exceptions().forEach(exceptions::put);
        n.put("charged", s.charged());
        n.put("refunded", s.refunded());
        n.put("foreign_charged", s.foreignCharged());
        n.put("balance_first", s.balanceFirst());
        n.put("balance_now", s.balanceNow());
        n.put("unexplained", s.unexplained());
        n.put("balance_first_source", s.first().source());
        if (s.first().readAt() != null) {
            n.put("balance_first_read_at", s.first().readAt().toString());
        }
        if (!s.first().known()) {
            n.put("balance_first_unknown", s.first().unknownWhy());
        }
        n.put("partial", s.partial());
        n.put("corrected", s.corrected());
        n.put("settled", s.settled());
        n.put("in_flight", s.inFlight());
        n.put("requests", s.requests());
        n.put("reconciled_at", s.ranAt().toString());
        return n;
    }

    private void keepEarlier(String base, Path csv, Path summary) throws IOException {
        if (!Files.exists(csv) && !Files.exists(summary)) {
            return;
        }
        Path sample = Files.exists(summary) ? summary : csv;
        Instant when = Files.getLastModifiedTime(sample).toInstant();
        String earlier = base + ".earlier-" + STAMP.format(when);
        int n = 1;
        String name = earlier;
        while (Files.exists(reports.resolve(name + ".csv")) || Files.exists(reports.resolve(name + ".summary.json"))) {
            name = earlier + "-" + (++n);
        }
        if (Files.exists(csv)) {
            Files.move(csv, reports.resolve(name + ".csv"), StandardCopyOption.ATOMIC_MOVE);
        }
        if (Files.exists(summary)) {
            Files.move(summary, reports.resolve(name + ".summary.json"), StandardCopyOption.ATOMIC_MOVE);
        }
    }

    private static String text(Object value) {
        return value == null ? "" : value.toString();
    }
}
