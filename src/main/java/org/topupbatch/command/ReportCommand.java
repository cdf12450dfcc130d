package org.topupbatch.command;

import org.topupbatch.run.ExitCode;
import org.topupbatch.text.OneLine;

import org.topupbatch.config.CommandSettings;

import java.io.IOException;
import java.io.PrintStream;
import java.time.Instant;
import java.util.List;
import org.topupbatch.journal.BatchRecord;
import org.topupbatch.journal.JournalException;
import org.topupbatch.journal.ReportingJournal;
import org.topupbatch.report.ReportFiles;
import org.topupbatch.report.ReportWriter;

/**
 * {@code java -jar topup-batch.jar report BATCH}: writes a batch's report again from the journal
 * alone, without calling the provider. BATCH is the batch id (the {@code batch} field of
 * summary.json) or the input file name. The journal is only read; balance_after and finished_at
 * are those of the batch's last report (the latest balance the journal knows, and now, for a batch
 * never reported). Exit 0 when written, 1 with one line on stderr otherwise.
 */
public final class ReportCommand implements Command {

    private final CommandContext context;

    public ReportCommand(CommandContext context) {
        this.context = context;
    }

    @Override
    public int run(List<String> args) {
        return CommandFrame.run("report", context, () -> report(args));
    }

    private int report(List<String> args) {
        if (args.size() != 1 || args.get(0).isBlank()) {
            throw new CommandFailure.Usage("report BATCH (a batch id, or an input file name)");
        }
        String wanted = args.get(0).trim();
        CommandSettings settings = context.settings();
        return context.onJournal((journal, attemptOut, attemptErr) ->
                write(journal.reporting(), BatchArgument.one(journal.reporting(), wanted), settings, attemptOut));
    }

    private int write(ReportingJournal journal, BatchRecord batch, CommandSettings settings, PrintStream out) {
        Long balanceAfter = batch.balanceAfter() != null ? batch.balanceAfter() : journal.latestBalance().orElse(null);
        Instant finishedAt = batch.reportedAt() != null ? batch.reportedAt() : context.clock().instant();
        try {
            ReportFiles files = new ReportWriter(settings.folders().reports(), org.topupbatch.report.ReportDelivery.LOCAL, settings.report().charset()).alsoXlsx(settings.report().xlsx())
                    .withAccounts(settings.provider().accounts().stream().map(org.topupbatch.settings.ProviderAccount::name).toList())
                    .withCustomerNotices(journal::customerNotices)
                    .write(batch, rows -> journal.forEachRow(batch.id(), rows), balanceAfter, finishedAt);
            out.println("Report of batch " + batch.id() + " (" + OneLine.of(batch.fileName()) + ") written: "
                    + (files.resultCsv() == null ? "" : files.resultCsv() + ", ") + files.summaryJson());
            return ExitCode.OK.code();
        } catch (JournalException e) {
            throw e; // the journal, not the reports folder: JournalStep reads again or says so
        } catch (IOException | RuntimeException e) {
            throw new CommandFailure("cannot write the report of batch " + batch.id() + " into " + settings.folders().reports()
                    + ": " + e.getMessage(), e);
        }
    }
}
