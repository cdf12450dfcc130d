package org.topupbatch.submit;

import java.time.Clock;
import org.topupbatch.journal.SubmissionJournal;
import org.topupbatch.provider.Accounts;

/**
 * Submission as the rest of the product sees it: the submit route's two beans ({@link #queue()},
 * {@link #outcomes()}), whether submission stopped for good, and recording an order answer found
 * when reconciling. The route (routes/submit.yaml) does the submitting.
 */
public class OrderSubmitter {

    private final OrderQueue queue;
    private final SubmitOutcomes outcomes;

    private final ProductAvailability availability;

    public OrderSubmitter(SubmissionJournal journal, Accounts gateway, Clock clock, PriceGuard prices,
                          ProductAvailability availability) {
        this.availability = availability;
        this.queue = new OrderQueue(journal, new BalanceBefore(journal, gateway::checkBalance, clock), clock, prices,
                availability, gateway::requestsPerMinute);
        this.outcomes = new SubmitOutcomes(journal, queue, gateway::rateLimited, clock, prices, availability);
    }

    /** The watch over products the provider reports unavailable (bean productAvailability). */
    public ProductAvailability availability() {
        return availability;
    }

    /** Takes due rows and marks them SENDING (bean orderQueue of the submit route). */
    public OrderQueue queue() {
        return queue;
    }

    /** Records what became of each create-order (bean submitOutcomes of the submit route). */
    public SubmitOutcomes outcomes() {
        return outcomes;
    }

    /** Set when the provider refused the credentials: nothing more is submitted by this process. */
    public String fatalProblem() {
        return queue.fatalProblem();
    }

    /** The run is stopping: rows not yet marked SENDING stay ACCEPTED for the next run. */
    public void refuseNewRows() {
        queue.refuseNewRows();
    }

    /** Leading again after stepping down: rows are taken again. */
    public void acceptNewRows() {
        queue.acceptNewRows();
    }
}
