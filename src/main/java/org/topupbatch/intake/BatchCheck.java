package org.topupbatch.intake;

import org.topupbatch.provider.PriceCatalog;

import org.topupbatch.settings.BalancePolicy;

import java.io.IOException;
import java.nio.charset.Charset;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.topupbatch.journal.BatchEncoding;
import org.topupbatch.journal.BatchWriter;

/**
 * The intake's checks on one file: read it, validate every row, apply the balance policy, and hand
 * the verdicts to a {@link BatchWriter}, then commit it. The intake's writer records the batch in
 * the journal; {@code plan}'s records nothing. One component for both, so that {@code plan} says
 * exactly what the intake will do.
 */
public final class BatchCheck {

    private final PriceCatalog catalog;
    private final CustomerRules rules;
    private final BalancePolicy policy;
    /** {@code topup.input-charset}: null for auto. */
    private final Charset inputCharset;
    /** {@code topup.repeat-window}: zero turns the repeat guard off. */
    private final java.time.Duration repeatWindow;
    private final java.time.Clock clock;

    public BatchCheck(PriceCatalog catalog, CustomerRules rules, BalancePolicy policy) {
        this(catalog, rules, policy, null);
    }

    public BatchCheck(PriceCatalog catalog, CustomerRules rules, BalancePolicy policy, Charset inputCharset) {
        this(catalog, rules, policy, inputCharset, java.time.Duration.ZERO, java.time.Clock.systemUTC());
    }

    public BatchCheck(PriceCatalog catalog, CustomerRules rules, BalancePolicy policy, Charset inputCharset,
                      java.time.Duration repeatWindow, java.time.Clock clock) {
        this.repeatWindow = repeatWindow;
        this.clock = clock;
        this.catalog = catalog;
        this.rules = rules;
        this.policy = policy;
        this.inputCharset = inputCharset;
    }

    private RowRouter router;

    /** Rows are checked against the router's price lists and routed to the accounts (the unnamed one's too). */
    public BatchCheck routedBy(RowRouter router) {
        this.router = router;
        return this;
    }

    /**
     * Where the verdicts go and the balance they must fit, asked once the header is read (the batch
     * record wants its delimiter, encoding and extra columns; a file without a header costs no
     * balance call).
     */
    @FunctionalInterface
    public interface Target {
        Opened open(char delimiter, BatchEncoding encoding, List<String> extraHeaders);
    }

    /** The writer, and the balance available to this batch. */
    public record Opened(BatchWriter writer, long balance) {
    }

    /**
     * @throws UnreadableBatchException when the file is not a batch at all (nothing is committed)
     * @throws IOException when the file cannot be read
     */
    public PlanSummary check(Path file, Target target, BatchPlanner.RowListener listener) throws IOException {
        if (WorkbookText.isWorkbook(file)) {
            // an Excel workbook: its first sheet as the cells show, then read like any CSV batch
            Path csv = Files.createTempFile("topup-workbook-", ".csv");
            try {
                WorkbookText.toCsv(file, csv);
                return checkCsv(csv, target, listener);
            } finally {
                Files.deleteIfExists(csv);
            }
        }
        return checkCsv(file, target, listener);
    }

    private PlanSummary checkCsv(Path file, Target target, BatchPlanner.RowListener listener) throws IOException {
        try (CsvBatchReader reader = CsvBatchReader.open(file, inputCharset)) {
            Opened opened = target.open(reader.delimiter(), reader.encoding(), reader.extraHeaders());
            try (BatchWriter writer = opened.writer()) {
                return plan(reader, writer, opened.balance(), listener);
            }
        }
    }

    private PlanSummary plan(CsvBatchReader reader, BatchWriter writer, long balance, BatchPlanner.RowListener listener) {
        PlanSummary summary = new BatchPlanner(new RowValidator(router == null ? catalog : router.catalog(), rules), policy, repeatWindow, clock)
                .routedBy(router).plan(reader, writer, balance, listener);
        writer.commit();
        return summary;
    }
}
