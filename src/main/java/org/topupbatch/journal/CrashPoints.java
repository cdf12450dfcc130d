package org.topupbatch.journal;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * Test-only crash hook for the crash campaign (docs/development.md#crash-campaign-and-fault-matrix): with
 * {@code -Dtopup.internal.crash-at=<point>:<n>} the process halts, as a SIGKILL would (no shutdown
 * hooks, exit code 137), at the n-th pass of the named point. Without the property every call is a
 * no-op. The points sit at the moments a crash is most likely to lose or double something, which
 * a kill at a random time hits only by luck. {@link #failIfAsked} is the same kind of hook for a
 * failure instead of a crash.
 */
public final class CrashPoints {

    /** The journal has committed a batch's rows; the input file is still in the inbox. */
    public static final String INTAKE_AFTER_COMMIT = "intake-after-commit";
    /** A row is committed as SENDING; its request has not left. */
    public static final String SUBMIT_AFTER_SENDING = "submit-after-sending";
    /** The provider answered create-order; the answer is not yet in the journal. */
    public static final String SUBMIT_AFTER_ANSWER = "submit-after-answer";
    /** The provider answered a status check; the answer is not yet in the journal. */
    public static final String TRACK_AFTER_ANSWER = "track-after-answer";
    /** A report file is complete under its temporary name, not yet renamed into place. */
    public static final String REPORT_BEFORE_RENAME = "report-before-rename";
    /**
     * A batch's stop is committed (with its {@code batch_stopped} notice in the outbox, in the same
     * transaction); nothing has followed it yet.
     */
    public static final String STOP_AFTER_COMMIT = "stop-after-commit";
    /** A message claimed from the outbox is about to be sent; nothing has left yet. */
    public static final String OUTBOX_BEFORE_SEND = "outbox-before-send";
    /** The endpoint took a message (a 2xx answer); the outbox does not yet record it delivered. */
    public static final String OUTBOX_AFTER_ANSWER = "outbox-after-answer";
    /** Intake is about to read a file's rows: a failure point (see {@link #failIfAsked}), the subject is the file name. */
    public static final String INTAKE_READ = "intake-read";

    private static final String POINT;
    private static final int AT;
    private static final AtomicInteger PASSES = new AtomicInteger();
    private static final String FAIL_AT = System.getProperty("topup.internal.fail-at", "");

    static {
        String spec = System.getProperty("topup.internal.crash-at", "");
        int colon = spec.lastIndexOf(':');
        POINT = colon < 0 ? spec : spec.substring(0, colon);
        AT = colon < 0 ? 1 : Integer.parseInt(spec.substring(colon + 1));
    }

    private CrashPoints() {
    }

    public static void pass(String point) {
        if (!POINT.isEmpty() && POINT.equals(point) && PASSES.incrementAndGet() == AT) {
            Runtime.getRuntime().halt(137);
        }
    }

    /**
     * Test-only failure point: with {@code -Dtopup.internal.fail-at=<point>:<subject>} (e.g.
     * {@code intake-read:poison.csv}) every pass of that point for that subject throws the
     * OutOfMemoryError a file too large for the heap would; other subjects pass. Without the
     * property it does nothing.
     */
    public static void failIfAsked(String point, String subject) {
        if (!FAIL_AT.isEmpty() && FAIL_AT.equals(point + ":" + subject)) {
            throw new OutOfMemoryError("Java heap space (test failure point " + FAIL_AT + ")");
        }
    }
}
