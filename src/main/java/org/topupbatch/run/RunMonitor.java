package org.topupbatch.run;

import java.util.EnumSet;
import java.util.function.IntConsumer;
import java.util.function.IntSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.topupbatch.journal.SubmissionJournal;
import org.topupbatch.journal.RowState;
import org.topupbatch.submit.OrderSubmitter;
import org.topupbatch.report.BatchReporter;

/**
 * Ends a run in once mode (docs/getting-started.md#running: exit codes): when the batches present at start are taken,
 * nothing is left to submit, and every report is written: exit 0 when every order is final,
 * 3 when some were still pending at the pending timeout (or a batch held by the operator during the
 * run was not resumed within the pending timeout of its hold: until then the run waits for it, as for
 * pending orders, and a resume lets it finish the batch; one held before the run is not waited for), 2 when a file was set aside because its
 * intake failed again and again (before 3: that file was not processed at all), 1 when the provider
 * refused the credentials.
 */
public class RunMonitor {

    private static final Logger LOG = LoggerFactory.getLogger(RunMonitor.class);

    private final InboxSnapshot snapshot;
    private final SubmissionJournal submission;
    private final OrderSubmitter submitter;
    private final BatchReporter reporter;
    private final IntConsumer exit;
    private final IntSupplier setAside;
    private volatile boolean ended;

    public RunMonitor(InboxSnapshot snapshot, SubmissionJournal submission, OrderSubmitter submitter, BatchReporter reporter,
                      IntConsumer exit) {
        this(snapshot, submission, submitter, reporter, exit, () -> 0);
    }

    /** @param setAside how many files intake has set aside in this run (their intake kept failing) */
    public RunMonitor(InboxSnapshot snapshot, SubmissionJournal submission, OrderSubmitter submitter, BatchReporter reporter,
                      IntConsumer exit, IntSupplier setAside) {
        this.snapshot = snapshot;
        this.submission = submission;
        this.submitter = submitter;
        this.reporter = reporter;
        this.exit = exit;
        this.setAside = setAside;
    }

    /** Called on a timer by the once route. */
    public void check() {
        if (ended) {
            return;
        }
        if (submitter.fatalProblem() != null) {
            end(ExitCode.FAILED, "stopping: " + submitter.fatalProblem());
            return;
        }
        if (!snapshot.allTaken() || !submission.nextToSubmit(1).isEmpty()
                || !submission.rowsInState(EnumSet.of(RowState.SENDING), 1).isEmpty()) {
            return;
        }
        int aside = setAside.getAsInt();
        switch (reporter.outstanding()) {
            case NONE -> {
                if (aside > 0) {
                    end(ExitCode.ATTENTION, setAsideWhy(aside) + "; every other batch is processed and every order is final");
                } else {
                    end(ExitCode.OK, "every batch is processed and every order is final");
                }
            }
            case ONLY_TIMED_OUT -> {
                if (aside > 0) {
                    end(ExitCode.ATTENTION, setAsideWhy(aside) + "; every other batch is processed, some orders were still pending at the pending timeout"
                            + " or held by the operator for as long");
                } else {
                    end(ExitCode.PENDING_AT_TIMEOUT, "every batch is processed; some orders were still pending at the pending"
                            + " timeout, or a batch held by the operator was not resumed within it (its rows stay queued for a later run)");
                }
            }
            default -> { }
        }
    }

    private static String setAsideWhy(int aside) {
        return (aside == 1 ? "1 file was" : aside + " files were") + " set aside in the error folder (intake failed, see its note)";
    }

    private void end(ExitCode code, String why) {
        ended = true;
        if (code == ExitCode.FAILED) {
            LOG.error("Run ends (exit {}): {}", code.code(), why);
        } else if (code == ExitCode.ATTENTION) {
            LOG.warn("Run ends (exit {}): {}", code.code(), why);
        } else {
            LOG.info("Run ends (exit {}): {}", code.code(), why);
        }
        exit.accept(code.code());
    }
}
