package org.topupbatch.command;

import org.topupbatch.run.ExitCode;


import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVPrinter;
import org.topupbatch.intake.CsvBatchReader;
import org.topupbatch.intake.RetryRefIds;
import org.topupbatch.journal.BatchRecord;
import org.topupbatch.journal.Journal;
import org.topupbatch.journal.ReportingJournal;
import org.topupbatch.journal.RowRecord;
import org.topupbatch.journal.RowState;

/**
 * {@code java -jar topup-batch.jar retry-failed BATCH}: writes a new batch file into the inbox with
 * the batch's failed rows (FAILED, and REFUSED: the provider refused them at creation) under new
 * ref_ids ({@link RetryRefIds}), extra columns kept, in the batch's delimiter. Only an operator
 * runs it, never the service: a retry costs money again.
 *
 * <p>The file is written under a name the intake ignores ({@code .csv.part}) and renamed when
 * complete, so the intake never takes half of it. Rows stream from the journal to the file.
 * Exit 0 when written; 1 with one line when the batch is unknown, has no failed row, its retry file
 * exists already (still in the inbox, or taken by the intake as a batch: then it is named), or the file
 * cannot be written.
 */
public final class RetryFailedCommand implements Command {

    private static final int EXAMPLES = 3;

    private final CommandContext context;

    public RetryFailedCommand(CommandContext context) {
        this.context = context;
    }

    @Override
    public int run(List<String> args) {
        return CommandFrame.run("retry-failed", context, () -> retry(args));
    }

    private int retry(List<String> args) {
        if (args.size() != 1 || args.get(0).isBlank()) {
            throw new CommandFailure.Usage("retry-failed BATCH (a batch id, or an input file name)");
        }
        String wanted = args.get(0).trim();
        Path inbox = context.settings().folders().inbox();
        try (Journal journal = context.openJournal()) {
            return write(journal.reporting(), BatchArgument.one(journal.reporting(), wanted), inbox);
        }
    }

    private int write(ReportingJournal journal, BatchRecord batch, Path inbox) {
        Path target = inbox.resolve(baseName(batch.fileName()) + ".retry-" + batch.id() + ".csv");
        if (Files.exists(target)) {
            throw new CommandFailure(target + " is already in the inbox; the failed rows of batch " + batch.id()
                    + " wait there to be taken");
        }
        List<BatchRecord> taken = journal.batchesForFile(target.getFileName().toString());
        if (!taken.isEmpty()) {
            // the same failed rows under the same new ref_ids: written again, the intake would only reject them all
            BatchRecord retry = taken.get(taken.size() - 1);
            throw new CommandFailure("the retry file of batch " + batch.id() + " exists already: "
                    + target.getFileName() + " was taken as batch " + retry.id()
                    + (retry.archivedAs() == null ? "" : " (kept as " + retry.archivedAs() + ")")
                    + "; its rows are ordered there ('status " + retry.id() + "'); nothing written");
        }
        Path part = inbox.resolve(target.getFileName() + ".part");
        long[] written = {0};
        List<String> examples = new ArrayList<>();
        try {
            Files.createDirectories(inbox);
            List<String> header = new ArrayList<>(CsvBatchReader.REQUIRED_COLUMNS);
            header.addAll(CsvBatchReader.OPTIONAL_COLUMNS);
            header.addAll(batch.extraHeaders());
            Map<Long, String> notifyTo = journal.notifyTargets(batch.id());
            CSVFormat format = CSVFormat.RFC4180.builder().setDelimiter(batch.delimiter()).setRecordSeparator("\r\n").get();
            try (Writer w = Files.newBufferedWriter(part, StandardCharsets.UTF_8);
                 CSVPrinter csv = new CSVPrinter(w, format)) {
                csv.printRecord(header);
                journal.forEachRow(batch.id(), row -> {
                    if (row.state() == RowState.FAILED || row.state() == RowState.REFUSED) {
                        String refId = RetryRefIds.next(row.refId());
                        print(csv, row, refId, notifyTo.get(row.id()), batch.extraHeaders().size());
                        if (examples.size() < EXAMPLES) {
                            examples.add(row.refId() + " -> " + refId);
                        }
                        written[0]++;
                    }
                });
            }
            if (written[0] == 0) {
                Files.delete(part);
                throw new CommandFailure("batch " + batch.id() + " (" + batch.fileName() + ") has no failed row; nothing"
                        + " to retry");
            }
            Files.move(part, target, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException | java.io.UncheckedIOException e) {
            deleteQuietly(part);
            throw new CommandFailure("cannot write " + target + ": " + e.getMessage(), e);
        }
        context.out().println("Wrote " + target + ": " + written[0] + " failed " + (written[0] == 1 ? "row" : "rows") + " of batch "
                + batch.id() + " (" + batch.fileName() + ") under new ref_ids (" + String.join(", ", examples)
                + (written[0] > examples.size() ? ", ..." : "") + "). The running service takes it like any batch;"
                + " a ref_id already used is rejected, so a row is never ordered twice.");
        return ExitCode.OK.code();
    }

    /** The row in the header's order: the required columns, the optional ones, then the extras. */
    private static void print(CSVPrinter csv, RowRecord row, String refId, String notifyTo, int extraColumns) {
        List<String> values = new ArrayList<>();
        values.add(refId);
        values.add(row.productSku());
        values.add(row.customerNo());
        values.add(row.customerNoZone() == null ? "" : row.customerNoZone());
        values.add(row.maxPrice() == null ? "" : row.maxPrice().toString());
        values.add(notifyTo == null ? "" : notifyTo);
        for (int i = 0; i < extraColumns; i++) {
            values.add(i < row.extras().size() ? row.extras().get(i) : "");
        }
        try {
            csv.printRecord(values);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static String baseName(String fileName) {
        return fileName.toLowerCase(java.util.Locale.ROOT).endsWith(".csv") ? fileName.substring(0, fileName.length() - 4)
                : fileName;
    }

    private static void deleteQuietly(Path file) {
        try {
            Files.deleteIfExists(file);
        } catch (IOException ignored) {
            // a leftover .part file is never taken by the intake
        }
    }
}
