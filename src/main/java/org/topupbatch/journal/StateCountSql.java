package org.topupbatch.journal;

import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.stream.Collectors;

/**
 * Rows per state (and batch), counted as one index range per state on (state, batch_id, seq):
 * the rows themselves are never read. {@code GROUP BY state} over a batch reads every row of
 * it, which took H2 over a second for a million-row batch; this takes under half of one.
 * Results have the columns state, batch_id and n.
 */
final class StateCountSql {

    /** Every row of the journal, per state (batch_id 0). */
    static final String ALL_ROWS = countsPerState(null);
    /** One batch's rows per state: bind with {@link #bindEachState}. */
    static final String OF_BATCH = countsPerState("= ?");
    /** Per state and batch, for the batches from an id on: bind with {@link #bindEachState}. */
    static final String FROM_BATCH = countsPerState(">= ?");

    private StateCountSql() {
    }

    private static String countsPerState(String batchCondition) {
        return Arrays.stream(RowState.values())
                .map(state -> "SELECT '" + state.name() + "' AS state, " + (batchCondition == null ? "0" : "batch_id")
                        + " AS batch_id, COUNT(*) AS n FROM batch_row WHERE state = '" + state.name() + "'"
                        + (batchCondition == null ? "" : " AND batch_id " + batchCondition + " GROUP BY batch_id"))
                .collect(Collectors.joining(" UNION ALL "));
    }

    /** The batch id once per state, as {@link #OF_BATCH} and {@link #FROM_BATCH} take it. */
    static void bindEachState(PreparedStatement ps, long batchId) throws SQLException {
        for (int i = 1; i <= RowState.values().length; i++) {
            ps.setLong(i, batchId);
        }
    }
}
