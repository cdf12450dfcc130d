package org.topupbatch.door;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.apache.camel.Exchange;
import org.apache.camel.Message;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.topupbatch.journal.BatchProgress;
import org.topupbatch.journal.BatchRecord;
import org.topupbatch.journal.BatchStatus;
import org.topupbatch.journal.IntakeJournal;
import org.topupbatch.journal.ReportingJournal;
import org.topupbatch.journal.RowState;
import org.topupbatch.observe.ManagementHttp;
import org.topupbatch.observe.RequestQuery;
import org.topupbatch.report.ReportWriter;
import org.topupbatch.text.OneLine;

/**
 * The HTTP door for ERPs that push rather than drop files (routes/http-intake.yaml, docs/erp-doors.md#the-http-door-for-erps): {@code POST /batches?name=FILE} puts the body into the inbox the way a careful ERP would
 * (written aside, then renamed in), so it goes through the very same intake, and answers once the
 * intake has recorded it: {@code 202} with the batch's id and counts. The same bytes under the same
 * name again answer the batch they made and order nothing. {@code GET /batches/{id}} is its progress,
 * {@code GET /batches/{id}/report} its result file once written ({@code 409} before).
 */
public final class HttpIntake {

    /** How long a request waits for the intake to record its file (it takes a file 2 s after it stops changing). */
    static final Duration INTAKE_WAIT = Duration.ofSeconds(60);
    /** Without a token, an order must carry this header: a page of another site cannot send it (CORS). */
    static final String CONFIRM = "X-Topup-Confirm";
    private static final Logger LOG = LoggerFactory.getLogger(HttpIntake.class);

    private final IntakeJournal intake;
    private final ReportingJournal reporting;
    private org.topupbatch.notify.Callbacks callbacks;
    private org.topupbatch.journal.Outbox outbox;
    private final Path inbox;
    private final Path reports;
    private final String token;
    private final long maxBytes;
    private final boolean watching;
    private UploadPreview previews;
    private final java.util.concurrent.ConcurrentHashMap<String, Object> placing = new java.util.concurrent.ConcurrentHashMap<>();

    /** The dashboard's preview of an upload ({@code POST /batches/preview}); returns this door. */
    public HttpIntake withPreview(UploadPreview previews) {
        this.previews = previews;
        return this;
    }

    /**
     * Takes {@code ?callback_url=URL} (docs/callbacks.md): checked against {@code topup.callback.allowed-hosts}
     * (400 otherwise) and recorded with the file's name and content before the file enters the inbox.
     */
    public HttpIntake withCallbacks(org.topupbatch.notify.Callbacks callbacks, org.topupbatch.journal.Outbox outbox) {
        this.callbacks = callbacks;
        this.outbox = outbox;
        return this;
    }

    /** {@code POST /batches/preview?name=FILE}: the intake's checks on the body, nothing recorded or ordered. */
    public Map<String, Object> preview(Exchange exchange) throws IOException {
        if (token == null && !confirmed(exchange)) {
            // a preview reads the balance: another site's page may not spend the rate budget on it
            return answer(exchange, 403, "not confirmed: send the header " + CONFIRM + ": order (or set topup.intake.token)");
        }
        String name = fileName(exchange);
        Optional<String> badName = badName(name);
        if (badName.isPresent()) {
            return answer(exchange, 400, badName.get());
        }
        byte[] body = readAtMost(exchange.getMessage().getBody(InputStream.class), maxBytes);
        if (body == null) {
            return answer(exchange, 413, "the file is over topup.intake.max-bytes " + maxBytes + " bytes");
        }
        if (body.length == 0 || previews == null) {
            return answer(exchange, 400, body.length == 0 ? name + " is empty" : "no preview here");
        }
        try {
            Map<String, Object> view = previews.preview(name, body);
            exchange.getMessage().setHeader(Exchange.HTTP_RESPONSE_CODE, 200);
            return view;
        } catch (IOException | RuntimeException e) {
            if (e instanceof org.topupbatch.provider.ProviderException
                    || e instanceof org.topupbatch.provider.PriceListUnavailableException) {
                return answer(exchange, 503, "the provider could not be asked for prices and balance: "
                        + OneLine.of(e.getMessage(), 300));
            }
            return answer(exchange, 400, name + " cannot be read as a batch: " + OneLine.of(String.valueOf(e.getMessage()), 500));
        }
    }

    /**
     * The confirmation names the door's action. That it came as a real request header, from this
     * server's own origin, is decided once for every route where requests enter: the components'
     * header filter (observe/ManagementHttp) and the management guard (docs/security.md).
     */
    static boolean confirmed(Exchange exchange) {
        Message in = exchange.getMessage();
        return "order".equalsIgnoreCase(in.getHeader(CONFIRM, String.class));
    }

    /**
     * The file's name: {@code ?name=FILE} from the query string itself (never a header or form field
     * of that name), else the file name of a multipart request's file part.
     */
    private static String fileName(Exchange exchange) {
        return RequestQuery.param(exchange.getMessage(), "name")
                .orElse(exchange.getProperty(ManagementHttp.UPLOAD_FILE_NAME, String.class));
    }

    private static Optional<String> badName(String name) {
        if (name == null || !name.matches("[A-Za-z0-9][A-Za-z0-9._ ()-]{0,199}")) {
            return Optional.of("give the file's name as ?name=FILE.csv (letters, digits, . _ - ( ) and spaces; no folders)");
        }
        String lower = name.toLowerCase(Locale.ROOT);
        if (!lower.endsWith(".csv") && !lower.endsWith(".xlsx")) {
            return Optional.of(name + ": the name must end in .csv or .xlsx");
        }
        return Optional.empty();
    }

    /**
     * @param token          {@code topup.intake.token}, or null: without it an order must carry {@value #CONFIRM};
     *                       with it, ManagementGuard has already asked every request for the token or a login
     * @param watching       watch mode: a once run takes only the files present when it started
     */
    public HttpIntake(IntakeJournal intake, ReportingJournal reporting, Path inbox, Path reports, String token, long maxBytes,
                      boolean watching) {
        this.intake = intake;
        this.reporting = reporting;
        this.inbox = inbox;
        this.reports = reports;
        this.token = token;
        this.maxBytes = maxBytes;
        this.watching = watching;
    }

    /** {@code POST /batches?name=FILE}: the body is the batch file. */
    public Map<String, Object> take(Exchange exchange) throws IOException, InterruptedException {
        Message in = exchange.getMessage();
        if (token == null && !confirmed(exchange)) {
            // without a token, only a request that a page of another site cannot send orders anything
            return answer(exchange, 403, "not confirmed: send the header " + CONFIRM + ": order (or set topup.intake.token)");
        }
        if (!watching) {
            return answer(exchange, 503, "the HTTP door takes batches in watch mode only (topup.mode=watch)");
        }
        String name = fileName(exchange);
        Optional<String> badName = badName(name);
        if (badName.isPresent()) {
            return answer(exchange, 400, badName.get());
        }
        // ?callback_url=URL, or a multipart upload's form field of that name
        String callbackUrl = RequestQuery.param(in, "callback_url")
                .orElse(exchange.getProperty(ManagementHttp.UPLOAD_CALLBACK_URL, String.class));
        if (callbackUrl != null) {
            String refused = callbacks == null ? "callback_url is not taken here" : callbacks.refusal(callbackUrl);
            if (refused != null) {
                return answer(exchange, 400, refused);
            }
        }
        Long declared = in.getHeader(Exchange.CONTENT_LENGTH, Long.class);
        if (declared != null && declared > maxBytes) {
            return answer(exchange, 413, "the file is " + declared + " bytes, over topup.intake.max-bytes " + maxBytes);
        }
        byte[] body = readAtMost(in.getBody(InputStream.class), maxBytes);
        if (body == null) {
            return answer(exchange, 413, "the file is over topup.intake.max-bytes " + maxBytes + " bytes");
        }
        if (body.length == 0) {
            return answer(exchange, 400, name + " is empty");
        }
        String hash = shortHash(body);
        Optional<BatchRecord> same = made(name, hash);
        if (same.isPresent()) {
            if (same.get().error() != null) {
                return answer(exchange, 400, name + " cannot be read as a batch: " + OneLine.of(same.get().error(), 500));
            }
            LOG.info("HTTP door: {} again with the same content: answered with batch {}, nothing new", name, same.get().id());
            return accepted(exchange, 200, same.get());
        }
        Path target = inbox.resolve(name);
        // one request at a time per name: the look for a waiting file and the placing go together
        synchronized (placing.computeIfAbsent(name.toLowerCase(Locale.ROOT), n -> new Object())) {
            if (Files.exists(target)) {
                return answer(exchange, 409, "a file named " + name + " is waiting in the inbox; send again once it is taken");
            }
            if (callbackUrl != null) {
                // before the file can be taken: its report cannot come before its callback is known
                outbox.recordDoorCallback(name, hash, callbackUrl, java.time.Instant.now());
            }
            drop(name, body, target);
        }
        LOG.info("HTTP door: {} ({} bytes) put into the inbox", name, body.length);
        long deadline = System.nanoTime() + INTAKE_WAIT.toNanos();
        while (System.nanoTime() < deadline) {
            Optional<BatchRecord> taken = made(name, hash);
            if (taken.isPresent()) {
                BatchRecord batch = taken.get();
                if (batch.error() != null) {
                    return answer(exchange, 400, name + " cannot be read as a batch: " + OneLine.of(batch.error(), 500));
                }
                return accepted(exchange, 202, batch);
            }
            Thread.sleep(200);
        }
        // still in the inbox (a long intake ahead of it): it is not lost, only not taken yet
        return answer(exchange, 504, name + " is in the inbox but was not taken within " + INTAKE_WAIT.toSeconds()
                + " s; GET /batches later, or send the same bytes again to learn its batch");
    }

    /** {@code GET /batches/{id}}: the batch's progress. */
    public Map<String, Object> progress(Exchange exchange) {
        Optional<BatchRecord> batch = batchOf(exchange);
        if (batch.isEmpty()) {
            return answer(exchange, 404, "no batch " + OneLine.of(String.valueOf(exchange.getMessage().getHeader("id")), 40));
        }
        exchange.getMessage().setHeader(Exchange.HTTP_RESPONSE_CODE, 200);
        return figures(batch.get());
    }

    /** {@code GET /batches/{id}/report}: the result CSV once written; 409 before. */
    public Object report(Exchange exchange) {
        Optional<BatchRecord> batch = batchOf(exchange);
        if (batch.isEmpty()) {
            return json(exchange, answer(exchange, 404, "no batch "
                    + OneLine.of(String.valueOf(exchange.getMessage().getHeader("id")), 40)));
        }
        if (batch.get().error() != null) {
            return json(exchange, answer(exchange, 410, "batch " + batch.get().id() + " could not be read, so it has no result:"
                    + " " + OneLine.of(batch.get().error(), 500)));
        }
        Optional<Path> result = batch.get().reportedAt() == null ? Optional.empty()
                : ReportWriter.resultFile(reports, batch.get());
        if (result.isEmpty()) {
            return json(exchange, answer(exchange, 409, "the report of batch " + batch.get().id() + " is not written yet"));
        }
        exchange.getMessage().setHeader(Exchange.HTTP_RESPONSE_CODE, 200);
        exchange.getMessage().setHeader(Exchange.CONTENT_TYPE, "text/csv");
        return result.get().toFile();
    }

    /** The batch this file made: the latest of its name whose archived copy carries its content hash. */
    private Optional<BatchRecord> made(String name, String hash) {
        return intake.lastBatchForFile(name)
                .filter(b -> b.archivedAs() != null && b.archivedAs().contains("." + hash + "."));
    }

    /**
     * Written aside in the inbox itself under a dot name (which the intake never takes) and renamed,
     * so the intake never sees half a file and the rename never crosses file systems.
     */
    private void drop(String name, byte[] body, Path target) throws IOException {
        Path part = target.resolveSibling("." + name + "." + Long.toHexString(System.nanoTime()) + ".part");
        try {
            Files.write(part, body);
            try {
                Files.move(part, target, StandardCopyOption.ATOMIC_MOVE);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(part, target);
            }
        } finally {
            Files.deleteIfExists(part);
        }
    }

    private Map<String, Object> accepted(Exchange exchange, int status, BatchRecord batch) {
        exchange.getMessage().setHeader(Exchange.HTTP_RESPONSE_CODE, status);
        return figures(batch);
    }

    private Map<String, Object> figures(BatchRecord batch) {
        BatchProgress progress = reporting.progress(batch.id());
        long rows = progress.counts().values().stream().mapToLong(Long::longValue).sum();
        long rejectedAtIntake = progress.count(RowState.REJECTED);
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("batch", batch.id());
        body.put("file", batch.fileName());
        body.put("rows", rows);
        body.put("accepted", rows - rejectedAtIntake);
        body.put("rejected", rejectedAtIntake);
        body.put("state", BatchStatus.of(batch, progress).name().toLowerCase(Locale.ROOT));
        Map<String, Long> states = new LinkedHashMap<>();
        progress.counts().forEach((state, n) -> states.put(state.name().toLowerCase(Locale.ROOT), n));
        body.put("rows_by_state", states);
        body.put("status_url", "/batches/" + batch.id());
        body.put("report_url", "/batches/" + batch.id() + "/report");
        return body;
    }

    private Optional<BatchRecord> batchOf(Exchange exchange) {
        String id = exchange.getMessage().getHeader("id", String.class);
        return id != null && id.matches("\\d{1,18}") ? reporting.batch(Long.parseLong(id)) : Optional.empty();
    }

    private static Map<String, Object> answer(Exchange exchange, int status, String message) {
        exchange.getMessage().setHeader(Exchange.HTTP_RESPONSE_CODE, status);
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("error", message);
        return body;
    }

    private static String json(Exchange exchange, Map<String, Object> body) {
        exchange.getMessage().setHeader(Exchange.CONTENT_TYPE, "application/json");
        try {
            return new com.fasterxml.jackson.databind.ObjectMapper().writeValueAsString(body);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The body, or null when it is over {@code limit} bytes (reading stops there). */
    static byte[] readAtMost(InputStream in, long limit) throws IOException {
        if (in == null) {
            return new byte[0];
        }
        byte[] bytes = in.readNBytes((int) Math.min(Integer.MAX_VALUE - 8, limit + 1));
        return bytes.length > limit ? null : bytes;
    }

    /** The intake's content hash (BatchIntake names the archived copy with it). */
    static String shortHash(byte[] body) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(body)).substring(0, 12);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
