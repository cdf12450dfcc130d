package org.topupbatch.track;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.topupbatch.journal.RowRecord;
import org.topupbatch.journal.TrackingJournal;

/**
 * Finds the row whose order a provider's message names by its ref_id. The journal finds a row by its
 * own ref_id; with several accounts, a row moved to its n-th account is ordered there as
 * {@code REF-Fn} (provider.FallbackRefIds), so such a name is also tried as the row {@code REF} at
 * attempt n. A fallback ref_id shortened with a hash (an original ref_id over 47 characters) cannot be
 * read back: its webhooks find no row, and polling settles that order.
 */
final class NamedOrders {

    private static final Pattern FALLBACK = Pattern.compile("(.+)-F([2-9]|[1-9][0-9])");

    private final TrackingJournal journal;

    NamedOrders(TrackingJournal journal) {
        this.journal = journal;
    }

    /** The row ordered under {@code orderRefId} or, failing that, the row whose fallback order it names. */
    Optional<RowRecord> find(String orderRefId) {
        Optional<RowRecord> own = journal.findOrder(orderRefId);
        if (own.isPresent()) {
            return own; // with one account always the order itself; with several, checked against its account later
        }
        Matcher fallback = FALLBACK.matcher(orderRefId);
        if (!fallback.matches()) {
            return Optional.empty();
        }
        // only the row that is at that attempt now: REF-F2 of a row gone on to its third account is no order of ours
        return journal.findOrder(fallback.group(1)).filter(row -> orderRefId.equals(row.orderRefId()));
    }
}
