package org.topupbatch.journal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A command opens the journal without ever migrating it: an older journal is refused with one line
 * naming {@code migrate-journal} and left as it was; a data folder with no journal reads as empty and
 * stays without one; an up-to-date journal opens as before.
 */
class JournalReaderAccessTest {

    @TempDir
    Path data;

    @Test
    void an_older_journal_is_refused_in_one_line_naming_migrate_journal_and_left_unmigrated() throws Exception {
        String url = JournalDataSource.url(data, null);
        java.nio.file.Files.createDirectories(data.resolve("journal"));
        Flyway.configure().dataSource(url, "sa", "").locations("classpath:db/migration").target("13").load().migrate();
        int before = applied(url);

        assertThatThrownBy(() -> JdbcJournal.openForReading(data, null, null, null).close())
                .isInstanceOf(JournalOutdatedException.class)
                .hasMessageContaining("is older than this topup-batch (schema version 13")
                .hasMessageContaining("'java -jar topup-batch.jar migrate-journal'")
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
        assertThat(applied(url)).as("the command migrated nothing").isEqualTo(before);

        JdbcJournal.open(data, null, null, null).close(); // what the product (or migrate-journal) does
        assertThat(applied(url)).isGreaterThan(before);
        try (JdbcJournal reader = JdbcJournal.openForReading(data, null, null, null)) {
            assertThat(reader.status().recentBatches(5)).isEmpty();
        }
    }

    @Test
    void a_data_folder_without_a_journal_reads_as_empty_and_gets_none() {
        try (JdbcJournal reader = JdbcJournal.openForReading(data, null, null, null)) {
            assertThat(reader.status().recentBatches(5)).isEmpty();
            assertThat(reader.tracking().findOrder("R-1")).isEmpty();
        }
        assertThat(data.resolve("journal").resolve("journal.mv.db")).doesNotExist();
    }

    @Test
    void a_cut_connection_and_a_journal_still_held_are_the_product_changing_and_a_bad_login_is_not() {
        assertThat(JournalReaderAccess.productChanging(new JournalException("x",
                new java.sql.SQLException("Connection is broken: \"session closed\"", "90067", 90067)))).isTrue();
        assertThat(JournalReaderAccess.productChanging(new JournalInUseException("jdbc:h2:file:x", null))).isTrue();
        assertThat(JournalReaderAccess.productChanging(new JournalException("x",
                new java.sql.SQLException("terminating connection due to administrator command", "57P01")))).isTrue();
        assertThat(JournalReaderAccess.productChanging(new JournalException("x",
                new java.sql.SQLException("password authentication failed", "28P01")))).isFalse();
    }

    private int applied(String url) throws Exception {
        // a journal made before passwords gets one from the first process that holds its lock (H2JournalPassword)
        Path folder = data.resolve("journal");
        String password = java.nio.file.Files.exists(folder.resolve(H2JournalPassword.FILE)) ? H2JournalPassword.forReader(folder) : "";
        try (Connection c = DriverManager.getConnection(url, H2JournalPassword.USER, password); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM \"flyway_schema_history\"")) {
            rs.next();
            return rs.getInt(1);
        }
    }
}
