package org.topupbatch.journal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The embedded journal's password: made at first start in an owner-only file, set on a journal made
 * before passwords (admin SA, empty password) without losing its rows, whatever moment an earlier
 * start stopped at; an empty password is refused afterwards.
 */
class H2JournalPasswordTest {

    /** Where the password lives (README and docs/journal-security.md name it; operators back it up). */
    private static final String PASSWORD_FILE = "journal.password";

    @TempDir
    Path data;

    private Path folder() {
        return data.toAbsolutePath().resolve("journal");
    }

    private String url() {
        return JournalDataSource.url(data, null);
    }

    @Test
    void a_new_journal_gets_a_password_only_its_owner_may_read_and_refuses_the_empty_one() throws Exception {
        try (JdbcJournal journal = JdbcJournal.open(data, null, null, null)) {
            journalOneBatch(journal, "N-1");
        }
        Path file = folder().resolve(PASSWORD_FILE);
        assertThat(Files.readString(file).trim()).matches("[0-9a-f]{64}");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-------");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(folder()))).isEqualTo("rwx------");
        assertThat(Files.exists(folder().resolve("journal.password.new"))).isFalse();
        assertThat(emptyPasswordRefused()).as("SA with an empty password").isTrue();
        try (JdbcJournal again = JdbcJournal.open(data, null, null, null)) {
            assertThat(again.tracking().findOrder("N-1")).isPresent();
        }
    }

    @Test
    void a_journal_made_before_passwords_gets_one_and_keeps_its_rows() throws Exception {
        madeBeforePasswords("OLD-1");
        try (JdbcJournal upgraded = JdbcJournal.open(data, null, null, null)) {
            assertThat(upgraded.tracking().findOrder("OLD-1")).get().extracting(RowRecord::state).isEqualTo(RowState.ACCEPTED);
        }
        assertThat(Files.readString(folder().resolve(PASSWORD_FILE)).trim()).matches("[0-9a-f]{64}");
        assertThat(emptyPasswordRefused()).isTrue();
    }

    @Test
    void a_start_that_stopped_before_or_after_setting_the_password_is_finished_by_the_next() throws Exception {
        madeBeforePasswords("OLD-2");
        // stopped after writing the pending file, before the database had the password
        String pending = "ab".repeat(32);
        Path pendingFile = Files.writeString(folder().resolve("journal.password.new"), pending + "\n");
        try (JdbcJournal upgraded = JdbcJournal.open(data, null, null, null)) {
            assertThat(upgraded.tracking().findOrder("OLD-2")).isPresent();
        }
        assertThat(Files.readString(folder().resolve(PASSWORD_FILE)).trim()).isEqualTo(pending);

        // stopped after the database had it, before the pending file took its name
        Files.move(folder().resolve(PASSWORD_FILE), pendingFile);
        try (JdbcJournal again = JdbcJournal.open(data, null, null, null)) {
            assertThat(again.tracking().findOrder("OLD-2")).isPresent();
        }
        assertThat(Files.readString(folder().resolve(PASSWORD_FILE)).trim()).isEqualTo(pending);
    }

    @Test
    void a_lost_password_file_is_one_line_naming_it_and_never_the_password() throws Exception {
        try (JdbcJournal journal = JdbcJournal.open(data, null, null, null)) {
            journalOneBatch(journal, "L-1");
        }
        Path file = folder().resolve(PASSWORD_FILE);
        String password = Files.readString(file).trim();
        Files.delete(file);
        assertThatThrownBy(() -> JdbcJournal.open(data, null, null, null))
                .isInstanceOf(JournalException.class)
                .hasMessageContaining("has a password that is not in " + file)
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain(password).doesNotContain("\n"));
        assertThatThrownBy(() -> JdbcJournal.openForReading(data, null, null, null))
                .isInstanceOf(JournalException.class)
                .hasMessageContaining(file.toString());
    }

    @Test
    void a_password_file_left_open_to_others_is_closed_again() throws Exception {
        try (JdbcJournal journal = JdbcJournal.open(data, null, null, null)) {
            journalOneBatch(journal, "P-1");
        }
        Path file = folder().resolve(PASSWORD_FILE);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));
        Files.setPosixFilePermissions(folder(), PosixFilePermissions.fromString("rwxr-xr-x"));
        try (JdbcJournal journal = JdbcJournal.openForReading(data, null, null, null)) {
            assertThat(journal.tracking().findOrder("P-1")).isPresent();
        }
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-------");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(folder()))).isEqualTo("rwx------");
    }

    /**
     * The state a journal of the version before passwords is in: the same schema and rows, admin SA
     * with an empty password, no password file (made here with today's code, then put back).
     */
    private void madeBeforePasswords(String ref) throws Exception {
        try (JdbcJournal journal = JdbcJournal.open(data, null, null, null)) {
            journalOneBatch(journal, ref);
        }
        Path file = folder().resolve(PASSWORD_FILE);
        try (Connection c = DriverManager.getConnection(url(), "sa", Files.readString(file).trim());
             Statement s = c.createStatement()) {
            s.execute("ALTER USER SA SET PASSWORD ''");
        }
        Files.delete(file);
        assertThat(emptyPasswordRefused()).as("the old journal opens with SA and no password").isFalse();
    }

    private boolean emptyPasswordRefused() {
        try (Connection ignored = DriverManager.getConnection(url(), "sa", "")) {
            return false;
        } catch (SQLException e) {
            assertThat(e.getErrorCode()).as(e.getMessage()).isEqualTo(28000);
            return true;
        }
    }

    private static void journalOneBatch(JdbcJournal journal, String ref) {
        try (BatchWriter writer = journal.intake().openBatch("p.csv", ',', List.of(), "archive/p.csv")) {
            writer.add(JournalContractTest.accepted(0, ref));
            writer.commit();
        }
    }
}
