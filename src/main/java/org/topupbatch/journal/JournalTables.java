package org.topupbatch.journal;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The journal's tables as a database describes them: names, columns, key and identity columns,
 * ordered so that a table comes after the tables it references. Read from the database rather
 * than listed here, so a table or column a later migration adds is moved too.
 */
record JournalTables(List<Table> tables) {

    /** Flyway's own bookkeeping: each database keeps its own. */
    static final String FLYWAY_HISTORY = "flyway_schema_history";

    /** A journal table; names are lower case, as they are written unquoted in SQL. */
    record Table(String name, List<String> columns, List<Integer> sqlTypes, String key, List<String> identities) {

        String columnList() {
            return String.join(", ", columns);
        }
    }

    /** The tables of the connection's current schema, referenced tables first. */
    static JournalTables of(Connection c) throws SQLException {
        DatabaseMetaData meta = c.getMetaData();
        String schema = c.getSchema();
        Map<String, String> metaNames = new LinkedHashMap<>();
        try (ResultSet rs = meta.getTables(c.getCatalog(), schema, "%", new String[] {"TABLE"})) {
            while (rs.next()) {
                String name = rs.getString("TABLE_NAME");
                if (!name.equalsIgnoreCase(FLYWAY_HISTORY)) {
                    metaNames.put(lower(name), name);
                }
            }
        }
        Map<String, Set<String>> references = new LinkedHashMap<>();
        Map<String, Table> byName = new LinkedHashMap<>();
        for (Map.Entry<String, String> t : metaNames.entrySet()) {
            references.put(t.getKey(), referencedTables(meta, c.getCatalog(), schema, t.getValue(), t.getKey()));
            byName.put(t.getKey(), describe(meta, c.getCatalog(), schema, t.getValue(), t.getKey()));
        }
        List<Table> ordered = new ArrayList<>();
        Set<String> placed = new LinkedHashSet<>();
        while (placed.size() < byName.size()) {
            boolean progress = false;
            for (Table t : byName.values()) {
                if (!placed.contains(t.name()) && placed.containsAll(references.get(t.name()))) {
                    ordered.add(t);
                    placed.add(t.name());
                    progress = true;
                }
            }
            if (!progress) {
                throw new JournalException("the journal's tables reference each other in a circle: " + byName.keySet());
            }
        }
        return new JournalTables(ordered);
    }

    private static Set<String> referencedTables(DatabaseMetaData meta, String catalog, String schema,
                                                String table, String self) throws SQLException {
        Set<String> referenced = new LinkedHashSet<>();
        try (ResultSet rs = meta.getImportedKeys(catalog, schema, table)) {
            while (rs.next()) {
                String other = lower(rs.getString("PKTABLE_NAME"));
                if (!other.equals(self)) {
                    referenced.add(other);
                }
            }
        }
        return referenced;
    }

    private static Table describe(DatabaseMetaData meta, String catalog, String schema, String table, String name)
            throws SQLException {
        List<String> columns = new ArrayList<>();
        List<Integer> types = new ArrayList<>();
        List<String> identities = new ArrayList<>();
        try (ResultSet rs = meta.getColumns(catalog, schema, table, "%")) {
            while (rs.next()) {
                columns.add(lower(rs.getString("COLUMN_NAME")));
                types.add(rs.getInt("DATA_TYPE"));
                if ("YES".equalsIgnoreCase(rs.getString("IS_AUTOINCREMENT"))) {
                    identities.add(lower(rs.getString("COLUMN_NAME")));
                }
            }
        }
        String key = null;
        try (ResultSet rs = meta.getPrimaryKeys(catalog, schema, table)) {
            if (rs.next()) {
                key = lower(rs.getString("COLUMN_NAME"));
                if (rs.next()) {
                    key = null; // a composite key: compare in the order of every column instead
                }
            }
        }
        return new Table(name, List.copyOf(columns), List.copyOf(types), key == null ? String.join(", ", columns) : key,
                List.copyOf(identities));
    }

    private static String lower(String name) {
        return name.toLowerCase(Locale.ROOT);
    }
}
