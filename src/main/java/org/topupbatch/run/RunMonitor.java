package org.topupbatch.run;

import java.util.EnumSet;
import java.util.function.IntConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.topupbatch.journal.OrderQueue;
import org.topupbatch.journal.RowState;
import org.topupbatch.submit.OrderSubmitter;
import org.topupbatch.report.BatchReporter;

/**
 * Ends a run in once mode (README, "Running": exit codes): when the batches present at start are taken,
 * nothing is left to submit, and every report is written: exit 0 when every order is final,
 * 3 when some were still pending at the pending timeout, 1 when the provider refused the credentials.
 */
public class RunMonitor {

    private static final Logger LOG = LoggerFactory.getLogger(RunMonitor.class);

    private final InboxSnapshot snapshot;
    private final OrderQueue queue;
    private final OrderSubmitter submitter;
    private final BatchReporter reporter;
    private final IntConsumer exit;
    private volatile boolean ended;

    public RunMonitor(InboxSnapshot snapshot, OrderQueue queue, OrderSubmitter submitter, BatchReporter reporter,
                      IntConsumer exit) {
        this.snapshot = snapshot;
        this.queue = queue;
        this.submitter = submitter;
        this.reporter = reporter;
        this.exit = exit;
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
        if (!snapshot.allTaken() || !queue.nextToSubmit(1).isEmpty()
                || !queue.rowsInState(EnumSet.of(RowState.SENDING), 1).isEmpty()) {
            return;
        }
        switch (reporter.outstanding()) {
            case NONE -> end(ExitCode.OK, "every batch is processed and every order is final");
            case ONLY_TIMED_OUT -> end(ExitCode.PENDING_AT_TIMEOUT, "every batch is processed; some orders were still pending at the pending timeout");
            default -> { }
        }
    }

    private void end(ExitCode code, String why) {
        ended = true;
        if (code == ExitCode.FAILED) {
            LOG.error("Run ends (exit {}): {}", code.code(), why);
        } else {
            LOG.info("Run ends (exit {}): {}", code.code(), why);
        }
        exit.accept(code.code());
    }
}
