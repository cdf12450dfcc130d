package org.topupbatch.journal;

import org.topupbatch.settings.PostgresUrlHint;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;

/**
 * Opens the journal's database as a connection pool, with its schema migrated.
 *
 * <p>With no JDBC URL the journal is an embedded H2 database in file mode under
 * {@code <data>/journal/}. Its URL options are chosen for crash safety:
 * <ul>
 *   <li>{@code WRITE_DELAY=0}: H2's MVStore otherwise writes committed transactions to the file
 *       only from a background thread, up to half a second later (its default write delay), so a
 *       process killed right after a commit would lose it. With 0 every commit is written to the
 *       file before {@code commit()} returns, which a killed process cannot undo. (H2 does not
 *       fsync on each commit: a power cut or OS crash may still lose the last moments.)</li>
 *   <li>{@code DB_CLOSE_ON_EXIT=FALSE}: the pool, not a JVM shutdown hook, decides when the
 *       database closes, so late work during shutdown does not meet a closed database.</li>
 *   <li>{@code AUTO_SERVER=FALSE}: one process owns the file. It serves it to local readers
 *       ({@code status}, {@code report}) through {@link H2JournalServer}; a second product is kept
 *       out by {@link H2InstanceLock}, taken before the database is opened.</li>
 * </ul>
 * <p>Otherwise the URL is used as given (PostgreSQL), with the given user and password. Several
 * nodes may open it at once: which one is active is decided by the journal's {@link JournalLock},
 * taken by the node's leadership service (org.topupbatch.cluster), not here.
 *
 * <p>{@link #openForReading} is for the commands ({@code status}, {@code hold}, ...): no instance
 * lock and no advisory lock, so they work beside a running service, and no migration: they only
 * check the schema ({@link JournalReaderAccess}).
 */
public final class JournalDataSource {

    static final String H2_OPTIONS = ";WRITE_DELAY=0;DB_CLOSE_ON_EXIT=FALSE;AUTO_SERVER=FALSE";
    private static final Set<PosixFilePermission> OWNER_ONLY = PosixFilePermissions.fromString("rwx------");

    static {
        // H2's TCP server listens on every interface unless told otherwise; readers are local
        if (System.getProperty("h2.bindAddress") == null) {
            System.setProperty("h2.bindAddress", "127.0.0.1");
        }
    }

    private JournalDataSource() {
    }

    /** The JDBC URL the journal uses for this data folder and configured URL. */
    public static String url(Path dataDir, String jdbcUrl) {
        if (jdbcUrl != null && !jdbcUrl.isBlank()) {
            return jdbcUrl.trim();
        }
        Path file = dataDir.toAbsolutePath().normalize().resolve("journal").resolve("journal");
        return "jdbc:h2:file:" + file + H2_OPTIONS;
    }

    /**
     * Opens the pool and brings the schema up to date.
     *
     * @param dataDir  the data folder ({@code topup.data}); used only for embedded H2
     * @param jdbcUrl  {@code topup.db.url}; null or blank for embedded H2
     * @throws JournalException with one line naming the URL (never the password) when the
     *                          database cannot be opened or migrated
     */
    public static HikariDataSource open(Path dataDir, String jdbcUrl, String user, String password) {
        return open(dataDir, jdbcUrl, user, password, true);
    }

    /**
     * As {@link #open(Path, String, String, String)} for a command that only reads: it takes no
     * instance lock, so it works while the service runs (reading H2 through the service's server).
     */
    public static HikariDataSource openForReading(Path dataDir, String jdbcUrl, String user, String password) {
        return open(dataDir, jdbcUrl, user, password, false);
    }

    private static HikariDataSource open(Path dataDir, String jdbcUrl, String user, String password, boolean instance) {
        String url = url(dataDir, jdbcUrl);
        boolean embedded = jdbcUrl == null || jdbcUrl.isBlank();
        if (embedded) {
            createFolder(dataDir.toAbsolutePath().normalize().resolve("journal"), url);
        }
        if (!instance) {
            return JournalReaderAccess.open(dataDir, url, embedded, () -> config(url, user, password, embedded));
        }
        HikariConfig config = config(url, user, password, embedded);
        // before the pool and the migration: a refused second instance touches nothing
        AutoCloseable lock = lock(dataDir, url, user, password, embedded, instance);
        Path folder = dataDir.toAbsolutePath().normalize().resolve("journal");
        if (embedded) {
            embeddedPassword(config, folder, url, lock);
        }
        LockedDataSource dataSource = pool(config, lock, url, embedded);
        try {
            JournalSchema.migrate(dataSource);
        } catch (RuntimeException e) {
            dataSource.close();
            throw new JournalException("cannot migrate the journal database " + redact(url) + ": " + rootMessage(e), e);
        }
        if (embedded) {
            try {
                stateIsNotSelective(dataSource);
                dataSource.server = H2JournalServer.start(folder, url.replace(H2_OPTIONS, ""));
            } catch (RuntimeException e) {
                dataSource.close();
                throw e;
            }
        }
        return dataSource;
    }

    private static HikariConfig config(String url, String user, String password, boolean embedded) {
        HikariConfig config = new HikariConfig();
        config.setPoolName("journal");
        config.setJdbcUrl(url);
        if (user != null && !user.isBlank()) {
            config.setUsername(user);
        } else if (embedded) {
            config.setUsername(H2JournalPassword.USER);
        }
        if (password != null && !password.isEmpty()) {
            config.setPassword(password);
        }
        config.setMaximumPoolSize(10);
        config.setAutoCommit(true);
        // fail at start, not at first use, when the database is not there
        config.setInitializationFailTimeout(1);
        config.setConnectionTimeout(10_000);
        if (url.startsWith("jdbc:postgresql:")) {
            // turns a JDBC batch of inserts into multi-row INSERTs: intake of big files is several times faster
            config.addDataSourceProperty("reWriteBatchedInserts", "true");
        }
        return config;
    }

    /**
     * The embedded journal's password, unless the settings give one ({@link H2JournalPassword}): with
     * the lock held the file is ours alone, so a new or old journal may get its password; without it
     * (a reader beside the running product) the password is read from its file.
     */
    static void embeddedPassword(HikariConfig config, Path folder, String url, AutoCloseable lock) {
        if (config.getPassword() != null) {
            return;
        }
        try {
            config.setPassword(lock == null ? H2JournalPassword.forReader(folder) : H2JournalPassword.prepare(folder, url));
        } catch (RuntimeException e) {
            closeQuietly(lock);
            throw e;
        }
    }

    /** The pool on {@code config}, which frees {@code lock} when it closes (or when it cannot be opened). */
    static LockedDataSource pool(HikariConfig config, AutoCloseable lock, String url, boolean embedded) {
        try {
            return new LockedDataSource(config, lock);
        } catch (RuntimeException e) {
            closeQuietly(lock);
            if (embedded && heldByAnotherProcess(e)) {
                throw new JournalInUseException(url.replace(H2_OPTIONS, ""), e);
            }
            throw new JournalException("cannot open the journal database " + redact(url) + ": " + rootMessage(e), e);
        }
    }

    /**
     * Tells H2 that a row's state has few values. Until H2 has analysed a journal it takes every
     * column as selective and plans "UPDATE ... WHERE id = ? AND state = ?" through the
     * (state, ...) indexes, scanning every row in that state instead of taking the primary key:
     * markSending then cost up to 0.8 s a row during a big intake, and pooled connections kept the
     * plan (BENCHMARKS.md, "Intake on the user's path"). PostgreSQL keeps statistics of its own.
     */
    private static void stateIsNotSelective(HikariDataSource dataSource) {
        try (java.sql.Connection c = dataSource.getConnection(); java.sql.Statement s = c.createStatement()) {
            s.execute("ALTER TABLE batch_row ALTER COLUMN state SELECTIVITY 1");
        } catch (java.sql.SQLException e) {
            throw new JournalException("cannot tune the journal database's query plans: " + e.getMessage(), e);
        }
    }

    private static AutoCloseable lock(Path dataDir, String url, String user, String password, boolean embedded,
                                      boolean instance) {
        if (embedded) {
            Path folder = dataDir.toAbsolutePath().normalize().resolve("journal");
            String shown = url.replace(H2_OPTIONS, "");
            return instance ? H2InstanceLock.takeForInstance(folder, shown) : H2InstanceLock.tryForReader(folder, shown);
        }
        return null; // PostgreSQL: the leadership service holds the JournalLock (docs/two-nodes.md#two-nodes)
    }

    static void closeQuietly(AutoCloseable lock) {
        if (lock == null) {
            return;
        }
        try {
            lock.close();
        } catch (Exception ignored) {
            // both kinds of lock go with their channel or connection
        }
    }

    /** A pool that frees the journal's lock when it closes. */
    static final class LockedDataSource extends HikariDataSource {
        private final transient AutoCloseable lock;
        /** Readers' way in to an embedded journal; stopped before the database closes. */
        private transient H2JournalServer server;

        LockedDataSource(HikariConfig config, AutoCloseable lock) {
            super(config);
            this.lock = lock;
        }

        @Override
        public void close() {
            try {
                if (server != null) {
                    server.close();
                }
                super.close();
            } finally {
                closeQuietly(lock);
            }
        }
    }

    /** H2 reports a file another process has open as error 90020 ("Database may be already in use"). */
    static boolean heldByAnotherProcess(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof java.sql.SQLException sql && sql.getErrorCode() == 90020) {
                return true;
            }
        }
        return false;
    }

    /**
     * The journal folder holds the database file and its password: the product's OS user alone may
     * enter it (H2's files are not encrypted; anyone who reads them reads every order). A folder
     * made by an earlier version with the usual modes is closed the same way.
     */
    private static void createFolder(Path folder, String url) {
        try {
            boolean posix = folder.getFileSystem().supportedFileAttributeViews().contains("posix");
            if (!Files.isDirectory(folder)) {
                Files.createDirectories(folder.getParent());
                try {
                    Files.createDirectory(folder, posix ? new FileAttribute<?>[] {PosixFilePermissions.asFileAttribute(OWNER_ONLY)}
                            : new FileAttribute<?>[0]);
                } catch (FileAlreadyExistsException raced) {
                    // another opener made it a moment ago
                }
            }
            if (posix && !Files.getPosixFilePermissions(folder).equals(OWNER_ONLY)) {
                Files.setPosixFilePermissions(folder, OWNER_ONLY);
            }
        } catch (IOException e) {
            throw new JournalException("cannot open the journal database " + url
                    + ": cannot create folder " + folder + ": " + e, e);
        }
    }

    /** A URL may carry a password as a parameter; errors and logs must not. */
    public static String redact(String url) {
        return PostgresUrlHint.redact(url);
    }

    /** The innermost message is the one that says what is wrong (refused, locked, bad login). */
    static String rootMessage(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        String message = t.getMessage();
        return (message == null ? t.getClass().getSimpleName() : message).lines().findFirst().orElse("");
    }
}
