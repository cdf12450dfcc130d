package org.topupbatch.run;

import java.util.EnumSet;
import org.topupbatch.journal.SubmissionJournal;
import org.topupbatch.journal.RowState;
import org.topupbatch.submit.OrderSubmitter;

/**
 * A stop without loss: no new row is taken and no new provider request starts; requests on the
 * wire finish and their outcomes are journaled.
 */
public final class GracefulStop {

    private final OrderSubmitter submitter;
    /** Each account's gate (one with a single account). */
    private final java.util.List<StoppableGate> gates;
    private final SubmissionJournal journal;

    public GracefulStop(OrderSubmitter submitter, StoppableGate gate, SubmissionJournal journal) {
        this(submitter, java.util.List.of(gate), journal);
    }

    public GracefulStop(OrderSubmitter submitter, java.util.List<StoppableGate> gates, SubmissionJournal journal) {
        this.submitter = submitter;
        this.gates = java.util.List.copyOf(gates);
        this.journal = journal;
    }

    /** Stops taking work; returns how many requests were on the wire. */
    public int stopTaking() {
        submitter.refuseNewRows();
        return gates.stream().mapToInt(StoppableGate::stop).sum();
    }

    /** Undoes {@link #stopTaking()} for a node that stepped down and now leads again. */
    public void resumeTaking() {
        gates.forEach(StoppableGate::resume);
        submitter.acceptNewRows();
    }

    /** After a stop: how it ended, in one line for the operator. */
    public String summary(int requestsFinishing) {
        int onWire = gates.stream().mapToInt(StoppableGate::inFlight).sum();
        int sending = journal.rowsInState(EnumSet.of(RowState.SENDING), 100_000).size();
        String finished = requestsFinishing + (requestsFinishing == 1 ? " request" : " requests") + " finished";
        if (onWire == 0 && sending == 0) {
            return finished + ", nothing left in flight";
        }
        return finished + ", " + sending + " orders left in SENDING (looked up at the provider by the next start,"
                + " or on two nodes by the node that takes over their account)";
    }
}
