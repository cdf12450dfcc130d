package org.topupbatch.journal;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.topupbatch.testing.PostgresServer;

/**
 * A contract's journal on PostgreSQL: a fresh database of the shared embedded server (see
 * {@link PostgresServer}) and a fresh data folder per test, made before the test's own set-up opens
 * it. Register it as an instance {@code @RegisterExtension} field and return {@link #open()} from the
 * contract's {@code open()}.
 */
final class FreshPostgresJournal implements BeforeEachCallback, AfterEachCallback {

    private static final PostgresServer POSTGRES = new PostgresServer();

    private PostgresServer.Database database;
    private Path data;

    @Override
    public void beforeEach(ExtensionContext context) throws IOException {
        database = POSTGRES.createDatabase();
        data = Files.createTempDirectory("topup-pg-journal-");
    }

    /** The test's journal; opened again after a close it is the same database. */
    JdbcJournal open() {
        return JdbcJournal.open(data, database.url(), database.user(), database.password());
    }

    @Override
    public void afterEach(ExtensionContext context) throws IOException {
        try (Stream<Path> files = Files.walk(data)) {
            for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
