package org.topupbatch.notify;

import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import org.topupbatch.journal.Outbox.OutboxEntry;
import org.topupbatch.journal.Outbox.OutboxState;
import org.topupbatch.text.OneLine;

/**
 * The outbox as {@code status} and the dashboard show it: one line for what waits (with the next
 * try and the last error), one per given-up message with the command that sends it again. Nothing
 * when the outbox holds neither. Targets are stored with their passwords masked, so none is shown.
 */
public final class OutboxLines {

    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss 'UTC'")
            .withZone(ZoneOffset.UTC);

    private OutboxLines() {
    }

    public static List<String> of(OutboxState state) {
        List<String> lines = new ArrayList<>();
        if (state.waiting() > 0) {
            OutboxEntry first = state.waitingListed().stream()
                    .min(java.util.Comparator.comparing(OutboxEntry::nextTryAt)).orElse(null);
            lines.add("Outbox: " + state.waiting() + (state.waiting() == 1 ? " message waits" : " messages wait")
                    + (first == null ? "" : "; next try " + TIME.format(first.nextTryAt()) + " (" + first.event() + " to "
                    + OneLine.of(first.target(), 200) + (first.lastError() == null ? "" : ", last error: "
                    + OneLine.of(first.lastError(), 200)) + ")"));
        }
        for (OutboxEntry e : state.givenUpListed()) {
            lines.add("Given up: " + e.event() + " " + e.eventId() + " to " + OneLine.of(e.target(), 200) + " after "
                    + e.tries() + (e.tries() == 1 ? " try" : " tries") + (e.lastError() == null ? "" : ": "
                    + OneLine.of(e.lastError(), 300)) + " ('resend-notices " + e.eventId() + "' sends it again)");
        }
        if (state.givenUp() > state.givenUpListed().size()) {
            lines.add("(" + state.givenUp() + " given up in all; 'resend-notices --given-up' sends them all again)");
        }
        return lines;
    }
}
