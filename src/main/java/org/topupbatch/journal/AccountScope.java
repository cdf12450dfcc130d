package org.topupbatch.journal;

import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.List;

/**
 * Several accounts on two nodes (docs/two-nodes.md#two-nodes): which rows one node takes, by the account each
 * row is at now ({@code batch_row.account}): those of the accounts it leads, and, on the active node,
 * those at no account or at an account topup.providers does not name (moved on or rejected unsent
 * when queued; waiting when sent).
 *
 * @param led        the accounts this node leads
 * @param others     whether this node also takes the rows at no account of {@code configured}
 * @param configured the accounts of topup.providers
 */
public record AccountScope(List<String> led, boolean others, List<String> configured) {

    public AccountScope {
        led = List.copyOf(led);
        configured = List.copyOf(configured);
    }

    /** Whether no row can be in it. */
    public boolean isEmpty() {
        return led.isEmpty() && !others;
    }

    /** The condition on {@code r.account}, with a leading AND; its values are bound by {@link #bind}. */
    String where() {
        String mine = led.isEmpty() ? "FALSE" : "r.account IN (" + marks(led.size()) + ")";
        if (!others) {
            return " AND " + mine;
        }
        String notOurs = configured.isEmpty() ? "TRUE" : "r.account NOT IN (" + marks(configured.size()) + ")";
        return " AND (" + mine + " OR r.account IS NULL OR " + notOurs + ")";
    }

    /** Binds the condition's values from parameter {@code from} on; returns the next parameter's index. */
    int bind(PreparedStatement ps, int from) throws SQLException {
        int i = from;
        for (String account : led) {
            ps.setString(i++, account);
        }
        if (others) {
            for (String account : configured) {
                ps.setString(i++, account);
            }
        }
        return i;
    }

    private static String marks(int n) {
        return String.join(", ", java.util.Collections.nCopies(n, "?"));
    }
}
