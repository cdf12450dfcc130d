package org.topupbatch.sftp;

import org.topupbatch.settings.SftpFolder;
import org.topupbatch.settings.SftpLogin;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import org.apache.camel.ConsumerTemplate;
import org.apache.camel.Exchange;
import org.apache.camel.component.file.GenericFile;
import org.apache.camel.component.file.GenericFileFilter;
import org.apache.camel.impl.DefaultCamelContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Brings complete batches from the SFTP inbox into the local inbox the intake watches
 * (README, "Inbox and reports on an SFTP server"). camel-ftp decides when a remote file is complete
 * (its size and modification time unchanged over one check interval) and, once this class has put
 * the whole file into the local inbox under its own name, moves it on the server into
 * {@code .archive/}. A crash in between leaves the file on the server and it is brought again: the
 * journal then recognises every row as already taken.
 *
 * <p>Also the file filter of that endpoint: a remote batch whose name still waits in the local
 * inbox stays on the server until the intake has taken the local one, so that neither is lost.
 */
public class InboxRelay implements GenericFileFilter<Object> {

    private static final Logger LOG = LoggerFactory.getLogger(InboxRelay.class);

    /** Seconds a remote file's size and modification time must stay the same before it is taken. */
    static final int STABLE_MILLIS = 2000;

    private final SftpFolder folder;
    private final SftpLogin login;
    private final Path localInbox;
    private final Path work;

    public InboxRelay(SftpFolder folder, SftpLogin login, Path localInbox, Path work) {
        this.folder = folder;
        this.login = login;
        this.localInbox = localInbox;
        this.work = work;
    }

    /**
     * The camel-ftp address of the remote inbox, for the relay route (bean {@code inboxRelay} must be
     * bound under that name: it is the filter).
     */
    public String endpointUri(String scheduling) {
        return folder.endpointUri(login, "includeExt=csv&sortBy=file:name&filter=#inboxRelay"
                + "&readLock=changed&readLockMinAge=0&readLockMinLength=0&readLockCheckInterval=" + STABLE_MILLIS
                + "&readLockTimeout=60000&readLockLoggingLevel=DEBUG"
                + "&move=.archive/${file:name.noext}.${date:now:yyyyMMdd-HHmmssSSS}.${file:ext}"
                + "&localWorkDirectory=" + work.toAbsolutePath() + "&" + scheduling);
    }

    @Override
    public boolean accept(GenericFile<Object> file) {
        return file.isDirectory() || !Files.exists(localInbox.resolve(file.getFileName()));
    }

    /** Puts the remote file of this exchange into the local inbox, whole or not at all. */
    public void deliver(Exchange exchange) throws IOException {
        String name = exchange.getIn().getHeader(Exchange.FILE_NAME_ONLY, String.class);
        Files.createDirectories(localInbox);
        Path target = localInbox.resolve(name);
        // a dot name not ending in .csv: neither the intake nor a once-mode snapshot sees it
        Path temp = localInbox.resolve("." + name + ".relay");
        Files.deleteIfExists(temp);
        try (InputStream in = exchange.getIn().getMandatoryBody(InputStream.class);
             FileChannel channel = FileChannel.open(temp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            OutputStream out = Channels.newOutputStream(channel);
            in.transferTo(out);
            out.flush();
            channel.force(true);
        } catch (org.apache.camel.InvalidPayloadException e) {
            throw new IOException("cannot read " + name + " from " + folder, e);
        }
        try {
            if (Files.exists(target)) {
                throw new FileAlreadyExistsException(target + " (a batch of that name still waits to be taken;"
                        + " this one follows later)");
            }
            try {
                Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(temp, target);
            }
        } finally {
            Files.deleteIfExists(temp);
        }
        LOG.info("Batch {} fetched from {} (kept there in .archive/)", name, folder);
    }

    /**
     * Once mode: brings every batch complete on the server now into the local inbox, before the run
     * takes its snapshot of the local inbox. Returns how many.
     *
     * @throws SftpUnavailableException when the server cannot be reached or read
     */
    public int fetchPresent() {
        int fetched = 0;
        try (DefaultCamelContext camel = new DefaultCamelContext()) {
            camel.getRegistry().bind("inboxRelay", this);
            camel.start();
            ConsumerTemplate consumer = camel.createConsumerTemplate();
            String uri = endpointUri("throwExceptionOnConnectFailed=true");
            for (Exchange e = consumer.receiveNoWait(uri); e != null; e = consumer.receiveNoWait(uri)) {
                try {
                    deliver(e);
                    fetched++;
                } catch (IOException | RuntimeException failure) {
                    e.setException(failure);
                    consumer.doneUoW(e); // leaves the remote file where it is
                    throw new SftpUnavailableException("cannot bring "
                            + e.getIn().getHeader(Exchange.FILE_NAME_ONLY) + " from " + folder + ": "
                            + login.masked(failure.getMessage()));
                }
                consumer.doneUoW(e); // moves the remote file into .archive/
            }
        } catch (SftpUnavailableException e) {
            throw e;
        } catch (RuntimeException | IOException e) {
            throw new SftpUnavailableException("the inbox " + folder + " cannot be read: " + login.masked(rootMessage(e)));
        }
        return fetched;
    }

    static String rootMessage(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        return t.getMessage() == null ? t.getClass().getSimpleName() : t.getMessage();
    }

    @Override
    public String toString() {
        return "InboxRelay[" + folder + " -> " + localInbox + "]";
    }
}
