package org.topupbatch.journal;

import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;

/**
 * ref_ids asked of the database many at a time: distinct, non-empty, in parts of {@link #SIZE},
 * each part bound into one {@code IN (...)} list of {@link #SIZE} places. Unused places hold NULL,
 * which matches nothing, so one prepared statement serves every part.
 */
final class RefIdParts {

    static final int SIZE = 1_000;

    /** {@code (?, ?, ...)} with {@link #SIZE} places. */
    static final String IN_LIST = "(" + String.join(", ", Collections.nCopies(SIZE, "?")) + ")";

    private RefIdParts() {
    }

    static List<List<String>> of(Collection<String> refIds) {
        List<String> all = refIds.stream().filter(r -> r != null && !r.isEmpty()).distinct().toList();
        List<List<String>> parts = new ArrayList<>();
        for (int from = 0; from < all.size(); from += SIZE) {
            parts.add(all.subList(from, Math.min(all.size(), from + SIZE)));
        }
        return parts;
    }

    /** Binds {@code part} from parameter {@code first} on, NULL in the places it leaves free. */
    static void bind(PreparedStatement ps, int first, List<String> part) throws SQLException {
        for (int i = 0; i < SIZE; i++) {
            ps.setString(first + i, i < part.size() ? part.get(i) : null);
        }
    }
}
