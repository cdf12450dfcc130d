package org.topupbatch.journal;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.net.ConnectException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.time.Duration;
import java.util.Set;
import java.util.UUID;
import java.util.function.Supplier;

/**
 * How a command ({@code status}, {@code hold}, ...) reaches the journal whatever the product is doing
 * (docs/operating.md#commands-while-the-product-runs). On H2 the product holds the file and serves it over
 * its journal server: a command goes through that server while the product runs, opens the file
 * itself when no product holds it, and, when the product is starting (the server not published yet)
 * or closing (the server gone, the file not yet free), tries again until one of the two ways opens,
 * for {@link #HANDOVER} at most. On PostgreSQL the database outlives the product; only a journal a
 * starting product is still migrating is waited for, briefly. No command ever migrates the journal:
 * it checks the schema ({@link JournalSchema#check}) and refuses an older one.
 */
public final class JournalReaderAccess {

    /** How long a command waits for the product to finish starting or stopping. */
    static final Duration HANDOVER = Duration.ofSeconds(30);
    /** How long a command waits for a PostgreSQL journal a starting product may be migrating. */
    static final Duration OUTDATED_WAIT = Duration.ofSeconds(5);
    private static final Duration PAUSE = Duration.ofMillis(200);

    /**
     * H2's codes for a server or database that went away or is not free: connection broken (also
     * refused), database in use, database closed, called during shutdown, I/O failure.
     */
    private static final Set<Integer> H2_GONE = Set.of(90067, 90020, 90098, 90121, 90028);

    private JournalReaderAccess() {
    }

    /**
     * True when {@code failure} comes from the product starting or stopping under a command (its
     * journal server not there yet or gone, the file not free yet, the connection cut): worth one
     * more try, unlike a refused login, a missing table or bad SQL.
     */
    public static boolean productChanging(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof JournalInUseException || t instanceof JournalBusyException
                    || t instanceof SQLTransientConnectionException || t instanceof ConnectException) {
                return true;
            }
            if (t instanceof SQLException sql) {
                String state = sql.getSQLState() == null ? "" : sql.getSQLState();
                if (H2_GONE.contains(sql.getErrorCode()) || state.startsWith("08") || state.startsWith("57P0")) {
                    return true;
                }
            }
        }
        return false;
    }

    static HikariDataSource open(Path dataDir, String url, boolean embedded, Supplier<HikariConfig> configs) {
        long start = System.nanoTime();
        while (true) {
            try {
                return openOnce(dataDir, url, embedded, configs.get());
            } catch (JournalException e) {
                Duration waited = Duration.ofNanos(System.nanoTime() - start);
                boolean again = e instanceof JournalOutdatedException
                        ? !embedded && waited.compareTo(OUTDATED_WAIT) < 0
                        : productChanging(e) && waited.compareTo(HANDOVER) < 0;
                if (!again) {
                    throw e;
                }
            }
            try {
                Thread.sleep(PAUSE.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new JournalException("interrupted while waiting for the journal " + JournalDataSource.redact(url), e);
            }
        }
    }

    private static HikariDataSource openOnce(Path dataDir, String url, boolean embedded, HikariConfig config) {
        // a command needs a connection or two, and a server that vanished should fail it quickly
        config.setMaximumPoolSize(4);
        config.setMinimumIdle(1);
        config.setConnectionTimeout(5_000);
        String shown = JournalDataSource.redact(url.replace(JournalDataSource.H2_OPTIONS, ""));
        AutoCloseable lock = null;
        if (embedded) {
            Path folder = dataDir.toAbsolutePath().normalize().resolve("journal");
            lock = H2InstanceLock.tryForReader(folder, shown);
            if (lock != null) {
                // no product holds the file: open it ourselves, holding the lock while we read
                if (!Files.isRegularFile(folder.resolve("journal.mv.db"))) {
                    JournalDataSource.closeQuietly(lock);
                    return emptyJournal(); // never opened by a product: a command does not create it
                }
                config.setJdbcUrl(url + ";IFEXISTS=TRUE");
            } else {
                Path database = folder.resolve("journal");
                config.setJdbcUrl(H2JournalServer.publishedUrl(folder, database).orElseThrow(() ->
                        new JournalBusyException("cannot read the journal " + shown + ": the running topup-batch"
                                + " instance has not published " + folder.resolve("journal").resolveSibling("server.port")
                                + " (it is starting or stopping)")));
            }
        }
        if (embedded) {
            JournalDataSource.embeddedPassword(config, dataDir.toAbsolutePath().normalize().resolve("journal"), url, lock);
        }
        JournalDataSource.LockedDataSource dataSource = JournalDataSource.pool(config, lock, url, embedded);
        try {
            if (JournalSchema.check(dataSource, shown) == JournalSchema.State.EMPTY) {
                dataSource.close();
                return emptyJournal();
            }
            return dataSource;
        } catch (JournalException e) {
            dataSource.close();
            throw e;
        } catch (RuntimeException e) {
            dataSource.close();
            throw new JournalException("cannot check the journal database " + shown + ": "
                    + JournalDataSource.rootMessage(e), e);
        }
    }

    /**
     * A journal no product has opened yet reads as an empty one (no batch, no call): an in-memory
     * database with this jar's schema, so that nothing is created where the product will put its own.
     */
    private static HikariDataSource emptyJournal() {
        HikariConfig config = new HikariConfig();
        config.setPoolName("journal");
        config.setJdbcUrl("jdbc:h2:mem:empty-journal-" + UUID.randomUUID());
        config.setUsername("sa");
        config.setMaximumPoolSize(4);
        HikariDataSource dataSource = new HikariDataSource(config);
        try {
            JournalSchema.migrate(dataSource);
        } catch (RuntimeException e) {
            dataSource.close();
            throw new JournalException("cannot prepare an empty journal: " + JournalDataSource.rootMessage(e), e);
        }
        return dataSource;
    }
}
