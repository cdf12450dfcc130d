package org.topupbatch.run;

import java.util.concurrent.atomic.AtomicInteger;
import org.topupbatch.provider.ProviderException;
import org.topupbatch.provider.RequestGate;

/**
 * The rate budget's door with a stop: once the run stops, requests already on the wire finish,
 * no new one starts, and workers waiting for a slot give up at once (their rows were never sent).
 *
 * <p>Giving up is an {@code INTERRUPTED} provider error, never a thread interrupt left set: an
 * interrupted thread that then writes the journal would make H2 close its file.
 */
public final class StoppableGate implements RequestGate {

    private final RequestGate budget;
    private final Object lock = new Object();
    private final AtomicInteger inFlight = new AtomicInteger();
    private boolean stopping;

    public StoppableGate(RequestGate budget) {
        this.budget = budget;
    }

    @Override
    public Ticket enter(String operation) throws InterruptedException {
        synchronized (lock) {
            if (stopping) {
                throw notSent(operation);
            }
        }
        Ticket ticket = null;
        boolean interrupted = false;
        boolean refused;
        try {
            ticket = budget.enter(operation);
        } catch (InterruptedException e) {
            interrupted = true;
        } finally {
            synchronized (lock) {
                refused = stopping;
                if (!refused && ticket != null) {
                    inFlight.incrementAndGet();
                }
            }
        }
        if (refused) {
            if (ticket != null) {
                ticket.completed(0);
            }
            throw notSent(operation);
        }
        if (interrupted) {
            throw new InterruptedException(); // not ours: whoever interrupted decides
        }
        Ticket granted = ticket;
        return status -> {
            inFlight.decrementAndGet();
            granted.completed(status);
        };
    }

    /** Refuses new requests from now on, also to the workers waiting for a slot; returns the requests on the wire. */
    public int stop() {
        synchronized (lock) {
            stopping = true;
        }
        // tells the waiting workers (they look again within a second) without a thread interrupt: one may be
        // writing its reservation to the journal; never blocks, so a node stepping down is not held up
        budget.refuseWaiting();
        return inFlight.get();
    }

    /** After a stop for a lost leadership, when this node leads again: requests may start again. */
    public void resume() {
        synchronized (lock) {
            stopping = false;
        }
        budget.acceptAgain();
    }

    /** Requests sent whose answer has not come yet. */
    public int inFlight() {
        return inFlight.get();
    }

    private static ProviderException notSent(String operation) {
        return new ProviderException(operation, org.topupbatch.provider.ProviderError.INTERRUPTED, 0, false, "not sent: the run is stopping",
                null, null);
    }
}
