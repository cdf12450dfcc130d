package org.topupbatch.journal;

/**
 * The one listener every repository tells of rows made final. Set after the journal is open,
 * because the report route that listens needs the journal first.
 */
final class RowFinalRelay {

    private volatile RowFinalListener listener = RowFinalListener.NONE;

    void set(RowFinalListener listener) {
        this.listener = listener == null ? RowFinalListener.NONE : listener;
    }

    RowFinalListener current() {
        return listener;
    }
}
