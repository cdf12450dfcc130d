package org.topupbatch.sftp;

import org.topupbatch.settings.SftpFolder;
import org.topupbatch.settings.SftpLogin;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.apache.camel.CamelContext;
import org.apache.camel.Exchange;
import org.apache.camel.ProducerTemplate;
import org.apache.camel.spi.IdempotentRepository;
import org.apache.camel.support.processor.idempotent.FileIdempotentRepository;
import org.apache.camel.support.service.ServiceHelper;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.topupbatch.report.ReportDelivery;

/**
 * Uploads the reports of the local outbox to the SFTP reports folder. The outbox is where the
 * report writer and its naming rule (an earlier batch's report kept under a batch-specific name)
 * work, on local files; every file there that changed since its last upload is uploaded, oldest
 * first, so a kept earlier report reaches the server before the newer report that replaces it
 * under the plain name. camel-ftp writes each under a temporary name ({@code .NAME.part}) and
 * renames it when whole, so a reader on the server never sees half a report.
 *
 * <p>What was uploaded is remembered by name, size and modification time in
 * {@code topup.data/reports-uploaded.txt}; a crash between upload and note only uploads a file twice.
 */
public final class ReportUpload implements ReportDelivery, AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ReportUpload.class);

    private final SftpFolder folder;
    private final SftpLogin login;
    private final ProducerTemplate producer;
    private final IdempotentRepository uploaded;
    private final String uri;
    private final SftpAccess access;

    public ReportUpload(SftpFolder folder, SftpLogin login, CamelContext camel, Path data, SftpAccess access) {
        this.folder = folder;
        this.access = access;
        this.login = login;
        this.producer = camel.createProducerTemplate();
        this.uploaded = FileIdempotentRepository.fileIdempotentRepository(data.resolve("reports-uploaded.txt").toFile(),
                100_000);
        ServiceHelper.startService(uploaded);
        // eagerDeleteTargetFile=false: an earlier version stays readable until the new one is whole
        this.uri = folder.endpointUri(login, "tempFileName=.${file:onlyname}.part&fileExist=Override"
                + "&eagerDeleteTargetFile=false&throwExceptionOnConnectFailed=true"
                // one login per upload: the report backstop is the retry, not camel-ftp's reconnects
                + "&maximumReconnectAttempts=0");
    }

    @Override
    public synchronized void deliver(Path outbox) throws IOException {
        for (Path file : waiting(outbox)) {
            BasicFileAttributes a = Files.readAttributes(file, BasicFileAttributes.class);
            String key = file.getFileName() + "|" + a.size() + "|" + a.lastModifiedTime().toMillis();
            if (uploaded.contains(key)) {
                continue;
            }
            Exchange done = producer.send(uri, e -> {
                e.getIn().setBody(file.toFile());
                e.getIn().setHeader(Exchange.FILE_NAME, file.getFileName().toString());
            });
            if (done.getException() != null) {
                throw new IOException("cannot upload " + file.getFileName() + " to " + folder + ": "
                        + access.failed(done.getException())
                        + " (it stays in " + outbox.toAbsolutePath() + " and is uploaded on the next try)");
            }
            access.worked();
            uploaded.add(key);
            LOG.debug("Uploaded {} to {}", file.getFileName(), folder);
        }
    }

    /** The finished reports of the outbox, oldest first (temporary files start with '.'). */
    private static List<Path> waiting(Path outbox) throws IOException {
        try (Stream<Path> files = Files.list(outbox)) {
            return files.filter(Files::isRegularFile)
                    .filter(p -> !p.getFileName().toString().startsWith("."))
                    .sorted(Comparator.comparing(ReportUpload::modified).thenComparing(p -> p.getFileName().toString()))
                    .toList();
        }
    }

    private static long modified(Path p) {
        try {
            return Files.getLastModifiedTime(p).toMillis();
        } catch (IOException e) {
            return Long.MAX_VALUE;
        }
    }

    @Override
    public void close() {
        ServiceHelper.stopService(uploaded);
        ServiceHelper.stopService(producer);
    }

    @Override
    public String toString() {
        return "ReportUpload[" + folder + "]";
    }
}
