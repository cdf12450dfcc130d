package org.topupbatch.journal;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.stream.Stream;

/**
 * Rewrites a stopped product's embedded H2 journal into the smallest file that holds it (H2's
 * {@code SHUTDOWN COMPACT}). H2 only ever appends while the database is open and, with the
 * commit-safe {@code WRITE_DELAY=0} of {@link JournalDataSource}, never compacts it then: taking in
 * a million-row file leaves about 1.8 KB per row on disk of which under 100 bytes are live.
 * Holding the instance lock meanwhile keeps a product from starting on the file.
 */
public final class H2JournalCompaction {

    /** The journal folder's size before and after, in bytes. */
    public record Sizes(long before, long after) {
    }

    private H2JournalCompaction() {
    }

    /**
     * @throws JournalInUseException when a product holds the journal (it must be stopped first)
     * @throws JournalException      when there is no H2 journal in this data folder or it cannot be compacted
     */
    public static Sizes compact(Path dataDir) {
        Path folder = dataDir.toAbsolutePath().normalize().resolve("journal");
        if (!Files.isRegularFile(folder.resolve("journal.mv.db"))) {
            throw new JournalException("no H2 journal at " + folder.resolve("journal.mv.db"), null);
        }
        String url = JournalDataSource.url(dataDir, null);
        long before = size(folder);
        try (H2InstanceLock lock = H2InstanceLock.takeForInstance(folder, url);
             Connection connection = DriverManager.getConnection(url, H2JournalPassword.USER,
                     H2JournalPassword.prepare(folder, url));
             Statement statement = connection.createStatement()) {
            statement.execute("SHUTDOWN COMPACT");
        } catch (SQLException e) {
            throw new JournalException("cannot compact the journal " + folder + ": " + e.getMessage(), e);
        }
        return new Sizes(before, size(folder));
    }

    static long size(Path folder) {
        try (Stream<Path> files = Files.walk(folder)) {
            return files.filter(Files::isRegularFile).mapToLong(f -> f.toFile().length()).sum();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
