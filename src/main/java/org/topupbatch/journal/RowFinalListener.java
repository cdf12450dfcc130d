package org.topupbatch.journal;

/**
 * Told, after the commit, that rows of a batch became final: an order settled or was refused, a
 * batch was halted (its unsent rows are final as "not submitted"), or a batch was recorded (its
 * rejected rows are final from the start). The batch's report may be due now. A listener must
 * return quickly and never throw: what it does not pass on, the report backstop finds later.
 */
@FunctionalInterface
public interface RowFinalListener {

    RowFinalListener NONE = batchId -> { };

    void rowsFinal(long batchId);
}
