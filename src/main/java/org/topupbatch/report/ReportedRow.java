package org.topupbatch.report;

import org.topupbatch.journal.RowRecord;

/** How one journal row reads in the report: status word, price (null = empty) and message. */
record ReportedRow(String status, Long price, String message) {

    static final String SUCCESS = "success";
    static final String FAILED = "failed";
    static final String PENDING = "pending";
    static final String REJECTED = "rejected";

    static ReportedRow of(RowRecord row, String haltReason) {
        return of(row, haltReason, false);
    }

    /** @param held whether an operator holds the row's batch (its queued rows wait for resume) */
    static ReportedRow of(RowRecord row, String haltReason, boolean held) {
        String message = row.message() == null ? "" : row.message();
        return switch (row.state()) {
            case SUCCESS -> new ReportedRow(SUCCESS, row.price(), message);
            // price = the refunded price the provider reported
            case FAILED -> new ReportedRow(FAILED, row.price(), message);
            // the provider refused at creation: no order, nothing charged
            case REFUSED -> new ReportedRow(FAILED, null, message);
            case PENDING -> new ReportedRow(PENDING, row.price(),
                    message.isBlank() ? "waiting for the provider's final status" : message);
            // an order may exist: report the amount at stake
            case SENDING, UNKNOWN -> new ReportedRow(PENDING, row.price(), "outcome not yet confirmed by the provider"
                    + (message.isBlank() ? "" : " (" + message + ")"));
            case REJECTED -> new ReportedRow(REJECTED, null, message);
            // repeats an order in flight: its message names the ref_id it waits for
            case WAITING -> haltReason != null
                    ? new ReportedRow(REJECTED, null, "not submitted: " + haltReason)
                    : new ReportedRow(PENDING, null, message);
            case ACCEPTED -> haltReason != null
                    ? new ReportedRow(REJECTED, null, "not submitted: " + haltReason)
                    : new ReportedRow(PENDING, null, held ? "not yet submitted: the batch is held by the operator" : "not yet submitted");
        };
    }
}
