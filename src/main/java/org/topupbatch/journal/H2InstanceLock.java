package org.topupbatch.journal;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Who may use an embedded H2 journal, decided by OS file locks on {@code <data>/journal/instance.lock}.
 * H2 runs in mixed mode (the process that opened the file serves it to local readers), so H2 itself
 * no longer keeps a second product out: this lock does.
 *
 * <p>Two one-byte regions: the product holds the <em>instance</em> byte for its whole life (a second
 * product is refused at once) and the <em>file</em> byte as well. A reader ({@code status},
 * {@code report}) that gets the file byte knows no product runs: it opens the file itself and holds
 * the byte while it reads, so that a product starting meanwhile waits the moment it takes rather than
 * reaching the file through the reader's short-lived server. A reader that does not get it reads
 * through the running product. The OS frees both when the process dies, even by SIGKILL.
 */
final class H2InstanceLock implements AutoCloseable {

    private static final long INSTANCE = 0;
    private static final long FILE = 1;

    private final FileChannel channel;

    private H2InstanceLock(FileChannel channel) {
        this.channel = channel;
    }

    /**
     * The product's claim: refused at once when another product holds the journal, waits for a
     * reader to finish.
     *
     * @throws JournalInUseException when another product holds it
     */
    static H2InstanceLock takeForInstance(Path journalFolder, String url) {
        FileChannel channel = openChannel(journalFolder, url);
        try {
            if (tryLock(channel, INSTANCE) == null) {
                closeQuietly(channel);
                throw new JournalInUseException(url, null);
            }
            try {
                channel.lock(FILE, 1, false); // a reader's moment, then ours for good
            } catch (OverlappingFileLockException inThisJvm) {
                // a reader in this very process: H2 shares one database per JVM, nothing to wait for
            }
            return new H2InstanceLock(channel);
        } catch (IOException e) {
            closeQuietly(channel);
            throw new JournalException("cannot lock the journal " + url + ": " + e.getMessage(), e);
        }
    }

    /** A reader's claim: the lock when no product runs (held while reading), else null. */
    static H2InstanceLock tryForReader(Path journalFolder, String url) {
        FileChannel channel = openChannel(journalFolder, url);
        try {
            if (tryLock(channel, FILE) == null) {
                closeQuietly(channel);
                return null;
            }
            return new H2InstanceLock(channel);
        } catch (IOException e) {
            closeQuietly(channel);
            throw new JournalException("cannot lock the journal " + url + ": " + e.getMessage(), e);
        }
    }

    /** Null when another process, or another holder in this JVM, has the byte. */
    private static FileLock tryLock(FileChannel channel, long position) throws IOException {
        try {
            return channel.tryLock(position, 1, false);
        } catch (OverlappingFileLockException e) {
            return null;
        }
    }

    private static FileChannel openChannel(Path journalFolder, String url) {
        try {
            return FileChannel.open(journalFolder.resolve("instance.lock"),
                    StandardOpenOption.CREATE, StandardOpenOption.WRITE, StandardOpenOption.READ);
        } catch (IOException e) {
            throw new JournalException("cannot open the journal database " + url + ": cannot create "
                    + journalFolder.resolve("instance.lock") + ": " + e, e);
        }
    }

    /** Frees both bytes (closing the channel releases its locks). */
    @Override
    public void close() {
        closeQuietly(channel);
    }

    private static void closeQuietly(FileChannel channel) {
        try {
            channel.close();
        } catch (IOException ignored) {
            // the locks go with the channel either way
        }
    }
}
