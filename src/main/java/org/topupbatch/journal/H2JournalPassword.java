package org.topupbatch.journal;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HexFormat;
import java.util.Set;

/**
 * The embedded H2 journal's password: one per data folder, made at first start from
 * {@link SecureRandom} and kept in {@code <data>/journal/journal.password}, readable and writable by
 * the product's OS user only. The journal's H2 server ({@link H2JournalServer}) listens on a
 * loopback port any local user can reach; H2's admin may create Java functions, so an admin with an
 * empty password would let any local user run code as the product. The database's admin (user
 * {@code SA}) therefore has this password, and readers ({@code status}, {@code report}) read it from
 * the file, which other OS users cannot.
 *
 * <p>A journal made before passwords (admin {@code SA} with an empty password) gets one the first
 * time a process that holds the journal's lock opens it. The password goes to a pending file first,
 * then into the database, then the pending file takes the final name: a crash at any point leaves
 * either the old empty password or the pending one, both of which the next start tries.
 *
 * <p>The password is never logged nor put in an error: messages name the file only.
 */
final class H2JournalPassword {

    /** H2 makes the user that creates a database its admin; the journal keeps H2's usual name. */
    static final String USER = "SA";
    static final String FILE = "journal.password";
    private static final String PENDING = FILE + ".new";
    private static final Set<PosixFilePermission> OWNER_ONLY = PosixFilePermissions.fromString("rw-------");
    /** H2's "Wrong user name or password". */
    private static final int WRONG_PASSWORD = 28000;

    private H2JournalPassword() {
    }

    /**
     * The password of the journal in {@code journalFolder}, made (new journal) or set (journal made
     * before passwords) when needed. Only for a process holding the journal's instance or file lock:
     * nobody else has the database open meanwhile.
     *
     * @param url the embedded journal's JDBC URL, with its options
     */
    static String prepare(Path journalFolder, String url) {
        Path file = journalFolder.resolve(FILE);
        if (Files.exists(file)) {
            return read(file);
        }
        Path pending = journalFolder.resolve(PENDING);
        String password = Files.exists(pending) ? read(pending) : writeNew(pending);
        if (Files.exists(journalFolder.resolve("journal.mv.db"))) {
            setOnOldJournal(url, password, file);
        }
        try {
            Files.move(pending, file, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new JournalException("cannot keep the journal's password in " + file + ": " + e.getMessage(), e);
        }
        return password;
    }

    /**
     * The password a reader uses to reach the journal through the running product's server.
     *
     * @throws JournalException naming the file when it is missing or this OS user may not read it
     */
    static String forReader(Path journalFolder) {
        return read(journalFolder.resolve(FILE));
    }

    /** A journal made before passwords: its admin gets the pending password. */
    private static void setOnOldJournal(String url, String password, Path file) {
        try (Connection c = DriverManager.getConnection(url, USER, "")) {
            try (Statement s = c.createStatement()) {
                // hexadecimal digits only (writeNew), so nothing in the literal needs escaping
                s.execute("ALTER USER " + USER + " SET PASSWORD '" + password + "'");
            }
        } catch (SQLException e) {
            if (e.getErrorCode() != WRONG_PASSWORD) {
                throw new JournalException("cannot open the journal database " + shown(url) + ": "
                        + e.getMessage().lines().findFirst().orElse(""), e);
            }
            if (!opensWith(url, password)) {
                throw new JournalException("the journal " + shown(url) + " has a password that is not in " + file
                        + " (was the file deleted or the journal copied without it? restore " + file.getFileName()
                        + " from the data folder's backup)", null);
            }
            // a start that set the password and stopped before renaming the pending file
        }
    }

    private static boolean opensWith(String url, String password) {
        try (Connection ignored = DriverManager.getConnection(url, USER, password)) {
            return true;
        } catch (SQLException e) {
            if (e.getErrorCode() == WRONG_PASSWORD) {
                return false;
            }
            throw new JournalException("cannot open the journal database " + shown(url) + ": "
                    + e.getMessage().lines().findFirst().orElse(""), e);
        }
    }

    /** A fresh password in a file created owner-only from the start (no moment readable by others). */
    private static String writeNew(Path pending) {
        byte[] bytes = new byte[32];
        new SecureRandom().nextBytes(bytes);
        String password = HexFormat.of().formatHex(bytes);
        try {
            if (posix(pending)) {
                Files.createFile(pending, PosixFilePermissions.asFileAttribute(OWNER_ONLY));
            } else {
                Files.createFile(pending);
            }
            Files.writeString(pending, password + "\n", StandardCharsets.US_ASCII);
        } catch (FileAlreadyExistsException e) {
            return read(pending); // another opener of this folder made it a moment ago
        } catch (IOException e) {
            throw new JournalException("cannot make the journal's password file " + pending + ": " + e.getMessage(), e);
        }
        return password;
    }

    private static String read(Path file) {
        try {
            if (posix(file) && !Files.getPosixFilePermissions(file).equals(OWNER_ONLY)) {
                // e.g. a data folder restored by a tool that did not keep modes: close it again
                Files.setPosixFilePermissions(file, OWNER_ONLY);
            }
            String password = Files.readString(file, StandardCharsets.US_ASCII).trim();
            if (!password.matches("[0-9a-f]{64}")) {
                throw new JournalException("the journal's password file " + file + " is damaged (expected one line"
                        + " of 64 hexadecimal digits); restore it from the data folder's backup", null);
            }
            return password;
        } catch (NoSuchFileException e) {
            throw new JournalException("cannot read the journal: its password file " + file + " is missing", e);
        } catch (AccessDeniedException e) {
            throw new JournalException("cannot read the journal's password file " + file
                    + ": permission denied (run topup-batch as the OS user that owns the data folder)", e);
        } catch (IOException e) {
            throw new JournalException("cannot read the journal's password file " + file + ": " + e.getMessage(), e);
        }
    }

    private static boolean posix(Path file) {
        return file.getFileSystem().supportedFileAttributeViews().contains("posix");
    }

    private static String shown(String url) {
        return url.replace(JournalDataSource.H2_OPTIONS, "");
    }
}
