package org.topupbatch.provider;

/**
 * The door every provider request passes, once per HTTP request (a retry passes it again).
 * The rate budget implements it; the client knows nothing of rates.
 */
public interface RequestGate {

    /**
     * Waits until one more request of {@code operation} may be sent and reserves it.
     * Called right before the request goes on the wire.
     */
    Ticket enter(String operation) throws InterruptedException;

    /**
     * Wakes every caller waiting in {@link #enter} and makes it, and every later caller, give up
     * with an {@link InterruptedException}, without interrupting any thread: a thread interrupted
     * while it writes the journal would make H2 close its file.
     */
    default void refuseWaiting() {
    }

    /** Undoes {@link #refuseWaiting()}: a node that stepped down and leads again sends again. */
    default void acceptAgain() {
    }

    /** One reserved request. */
    interface Ticket {
        /** Called once the request is over: its HTTP status, or 0 when no answer came. */
        void completed(int httpStatus);
    }

    /** A gate that never waits, for tools and tests that count nothing. */
    RequestGate OPEN = operation -> status -> { };
}
