package org.topupbatch.sftp;

import org.topupbatch.settings.SftpFolder;
import org.topupbatch.settings.SftpLogin;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.apache.camel.ConsumerTemplate;
import org.apache.camel.Exchange;
import org.apache.camel.ProducerTemplate;
import org.apache.camel.component.file.FileConstants;
import org.apache.camel.component.file.GenericFile;
import org.apache.camel.component.file.GenericFileFilter;
import org.apache.camel.impl.DefaultCamelContext;
import org.apache.camel.support.PluginHelper;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Brings complete batches from the SFTP inbox into the local inbox the intake watches
 * (docs/erp-doors.md#inbox-and-reports-on-an-sftp-server). camel-ftp decides when a remote file is complete
 * (its size and modification time unchanged over one check interval) and, once the delivery route
 * ({@code routes/sftp-inbox-delivery.yaml}: Camel's file producer with a temporary name, no overwrite,
 * and {@link #syncDownload} first) has put the whole file into the local inbox under its own name,
 * moves it on the server into {@code .archive/}. A crash in between leaves the file on the server and it is brought again: the
 * journal then recognises every row as already taken.
 *
 * <p>Also the file filter of that endpoint: a remote batch whose name still waits in the local
 * inbox stays on the server until the intake has taken the local one, so that neither is lost.
 */
public class InboxRelay implements GenericFileFilter<Object> {

    /** The delivery route (also loaded by once mode's fetch) and its endpoint: the file endpoint is defined there only. */
    static final String DELIVERY_ROUTE_FILE = "classpath:routes/sftp-inbox-delivery.yaml";
    static final String DELIVERY_ENDPOINT = "direct:sftp-inbox-delivery";

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
                // one login per poll: each reconnect attempt would be one more failed login at the
                // server; the next poll (after the back-off) is the retry
                + "&maximumReconnectAttempts=0"
                // the folder is not created at start, which was one more login outside any poll
                + "&autoCreate=false"
                + "&move=.archive/${file:name.noext}.${date:now:yyyyMMdd-HHmmssSSS}.${file:ext}"
                + "&localWorkDirectory=" + work.toAbsolutePath() + "&" + scheduling);
    }

    @Override
    public boolean accept(GenericFile<Object> file) {
        return file.isDirectory() || !Files.exists(localInbox.resolve(file.getFileName()));
    }

    /**
     * First step of the delivery route ({@code routes/sftp-inbox-delivery.yaml}): forces camel-ftp's
     * download of this exchange (in the local work folder) to disk. Camel's file producer then renames
     * that very file to a dot name and to its own name in the local inbox, so the batch is on disk
     * before the intake can see it, as when this class wrote and synced it itself; the file producer
     * of Camel 4.14 never syncs (its forceWrites option is not used). A rename keeps that only within
     * one file system, so a work folder elsewhere than the local inbox is refused (the batch stays on
     * the server) rather than copied unsynced.
     */
    public void syncDownload(Exchange exchange) throws IOException {
        String name = exchange.getIn().getHeader(Exchange.FILE_NAME_ONLY, String.class);
        String download = exchange.getIn().getHeader(FileConstants.FILE_LOCAL_WORK_PATH, String.class);
        if (download == null || !Files.isRegularFile(Path.of(download))) {
            throw new IOException("cannot bring " + name + " from " + folder + ": its download is not in the work folder "
                    + work.toAbsolutePath());
        }
        Path file = Path.of(download);
        Files.createDirectories(localInbox);
        if (!Files.getFileStore(file).equals(Files.getFileStore(localInbox))) {
            throw new IOException("cannot bring " + name + " from " + folder + ": the work folder " + work.toAbsolutePath()
                    + " and the local inbox " + localInbox.toAbsolutePath() + " are on different file systems");
        }
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
            channel.force(true);
        }
    }

    /** Last step of the delivery route: the batch is whole in the local inbox. */
    public void delivered(Exchange exchange) {
        LOG.info("Batch {} fetched from {} (kept there in .archive/)", exchange.getIn().getHeader(Exchange.FILE_NAME_ONLY),
                folder);
    }

    /**
     * Once mode: brings every batch complete on the server now into the local inbox, before the run
     * takes its snapshot of the local inbox, through the same delivery route as watch mode. Returns
     * how many.
     *
     * @throws SftpUnavailableException when the server cannot be reached or read
     */
    public int fetchPresent() {
        int fetched = 0;
        try (DefaultCamelContext camel = new DefaultCamelContext()) {
            // the same binding a run's Camel Main does: the @BindToRegistry methods, then configure
            OnceFetchConfiguration beans = new OnceFetchConfiguration(this, localInbox);
            PluginHelper.getBeanPostProcessor(camel).postProcessBeforeInitialization(beans, "onceFetch");
            beans.configure(camel);
            camel.start();
            ConsumerTemplate consumer = camel.createConsumerTemplate();
            ProducerTemplate producer = camel.createProducerTemplate();
            String uri = endpointUri("throwExceptionOnConnectFailed=true&pollStrategy=#" + OnceFetchConfiguration.POLL_STRATEGY);
            for (Exchange e = consumer.receiveNoWait(uri); e != null; e = consumer.receiveNoWait(uri)) {
                Exchange fetched1 = e;
                // a new exchange through the route; this one's unit of work (the move into .archive/
                // or, on failure, leaving the file) is done below, as in watch mode after the route
                Exchange done = producer.send(DELIVERY_ENDPOINT, x -> {
                    x.getIn().setHeaders(fetched1.getIn().getHeaders());
                    x.getIn().setBody(fetched1.getIn().getBody());
                });
                if (done.getException() != null) {
                    e.setException(done.getException());
                    consumer.doneUoW(e); // leaves the remote file where it is
                    throw new SftpUnavailableException("cannot bring "
                            + e.getIn().getHeader(Exchange.FILE_NAME_ONLY) + " from " + folder + ": "
                            + login.masked(rootMessage(done.getException())));
                }
                fetched++;
                consumer.doneUoW(e); // moves the remote file into .archive/
            }
        } catch (SftpUnavailableException e) {
            throw e;
        } catch (Exception e) {
            // one line with the cause and the remedy (for a host key: which known_hosts, the ssh-keyscan line)
            throw new SftpUnavailableException("the inbox " + folder + " cannot be read: "
                    + new SftpAccess("inbox", folder, login).explain(e));
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
