package org.topupbatch.report;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.charset.Charset;
import java.nio.charset.CharsetEncoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.security.SecureRandom;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVPrinter;
import org.topupbatch.journal.BatchEncoding;
import org.topupbatch.journal.BatchRecord;
import org.topupbatch.journal.RowRecord;

/**
 * Writes a batch's report (docs/batch-files-and-reports.md#report) into the reports folder:
 * {@code NAME.result.csv} then {@code NAME.summary.json}, each under a temporary name in the same
 * folder, flushed to disk and renamed over any older report of the same batch, so a reader never
 * sees half a file. The summary is renamed last: once it is there, the result file is complete too.
 * Another batch's report of the same name is never overwritten: {@link ReportPlacement} keeps it.
 * Files get the ordinary permissions of the process (its umask), so that another user can read them.
 *
 * <p>Rows are streamed from the journal in file order and written one at a time; memory does not
 * grow with the batch. The CSV uses the batch's own delimiter and goes back in the encoding the
 * batch came in (a byte-order mark too when it had one), unless {@code topup.report.charset} sets
 * one; CRLF line ends (RFC 4180), quoting only where needed. A character the encoding cannot hold
 * (a provider message in Windows-1252, say) is written as {@code ?}.
 */
public final class ReportWriter {

    public static final List<String> COLUMNS = List.of("line", "ref_id", "product_sku", "customer_no",
            "customer_no_zone", "status", "serial_number", "price", "message");

    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(ReportWriter.class);
    private static final SecureRandom RANDOM = new SecureRandom();

    private final Path reportsDir;
    private final ReportDelivery delivery;
    /** {@code topup.report.charset}: null writes each report in its batch's encoding. */
    private final Charset charset;
    /** {@code topup.report.formats} holds xlsx: the result is also written as NAME.result.xlsx. */
    private boolean xlsx;

    public ReportWriter(Path reportsDir) {
        this(reportsDir, ReportDelivery.LOCAL, null);
    }

    /**
     * Writes into {@code reportsDir} and hands each finished report to {@code delivery} (e.g. an SFTP
     * upload); {@code charset} null: in the encoding each batch came in.
     */
    public ReportWriter(Path reportsDir, ReportDelivery delivery, Charset charset) {
        this.reportsDir = reportsDir;
        this.delivery = delivery;
        this.charset = charset;
    }

    /** Several accounts (docs/accounts-and-dialects.md#several-accounts): columns provider and provider_ref_id, and accounts in the summary. */
    private boolean accounts;
    /** The accounts of topup.providers, in its order: each is in the summary, with no rows too. */
    private List<String> accountNames = List.of();

    /** Several accounts, named in the order of topup.providers (none: one account). */
    public ReportWriter withAccounts(List<String> names) {
        this.accounts = !names.isEmpty();
        this.accountNames = List.copyOf(names);
        return this;
    }

    /** Several accounts: each account's balance when the report is written (null when unknown). */
    private java.util.function.Function<String, Long> accountBalances = account -> null;

    public ReportWriter withAccountBalances(java.util.function.Function<String, Long> balances) {
        this.accountBalances = balances;
        return this;
    }

    /** The column added before the extras when a row of the batch names a notify_to (docs/customer-messages.md). */
    public static final String CUSTOMER_COLUMN = "customer_notified";

    /** Each batch's customer_notified by row id (ReportingJournal#customerNotices); none by default. */
    private java.util.function.LongFunction<java.util.Map<Long, String>> customerNotices = batchId -> java.util.Map.of();

    public ReportWriter withCustomerNotices(java.util.function.LongFunction<java.util.Map<Long, String>> notices) {
        this.customerNotices = notices;
        return this;
    }

    /** The columns added after {@code message} with several accounts. */
    public static final List<String> ACCOUNT_COLUMNS = List.of("provider", "provider_ref_id");

    /** Also writes each result as an Excel workbook ({@code topup.report.formats=csv,xlsx}); returns this writer. */
    public ReportWriter alsoXlsx(boolean xlsx) {
        this.xlsx = xlsx;
        return this;
    }

    /** The encoding a batch's result file is written in. */
    BatchEncoding encodingFor(BatchRecord batch) {
        if (charset == null) {
            return batch.encoding() == null ? BatchEncoding.UTF_8 : batch.encoding();
        }
        // a set UTF-16 gets a byte-order mark, as spreadsheets need to tell its byte order
        boolean utf16 = charset.name().startsWith("UTF-16");
        return new BatchEncoding(charset.name().equals("UTF-16") ? StandardCharsets.UTF_16BE : charset, utf16);
    }

    /** The result file of {@code batch}'s report in {@code reportsDir}, once written (the latest or its own name). */
    public static java.util.Optional<Path> resultFile(Path reportsDir, BatchRecord batch) {
        return ReportPlacement.resultOf(reportsDir, reportName(batch.fileName()), batch);
    }

    /** NAME of {@code NAME.csv} or {@code NAME.xlsx}: the file name without folders and without that ending (any case). */
    public static String reportName(String fileName) {
        String name = Path.of(fileName).getFileName().toString();
        String lower = name.toLowerCase(Locale.ROOT);
        return lower.endsWith(".csv") ? name.substring(0, name.length() - 4)
                : lower.endsWith(".xlsx") ? name.substring(0, name.length() - 5) : name;
    }

    /**
     * Writes both files of a readable batch, or only the summary of an unreadable one
     * ({@link BatchRecord#error()} set; {@code rows} is then not called).
     *
     * @param rows streams the batch's rows in file order, e.g. {@code action -> journal.forEachRow(id, action)}
     * @param balanceAfter the balance read now (also stands for balance_before when the batch has none); null when unknown
     * @param finishedAt when the report is written
     */
    public ReportFiles write(BatchRecord batch, Consumer<Consumer<RowRecord>> rows, Long balanceAfter,
                             Instant finishedAt) throws IOException {
        // Only a file that could not be read has no balance from its intake; nothing was ordered for it.
        Long balanceBefore = batch.balanceBefore() != null ? batch.balanceBefore() : balanceAfter;
        Files.createDirectories(reportsDir);
        ReportPlacement.Target target = ReportPlacement.place(reportsDir, reportName(batch.fileName()), batch);
        Path summaryFile = target.summary();
        if (batch.error() != null) {
            ReportSummary summary = new ReportSummary(batch.fileName(), batch.id(), 0, 0, 0, 0, 0, 0, 0,
                    balanceBefore, balanceAfter, batch.startedAt(), finishedAt, batch.provider(), batch.error(), 0);
            writeAtomically(summaryFile, out -> writeSummary(summary, null, accountBalances, out));
            delivery.deliver(reportsDir);
            return new ReportFiles(null, summaryFile, summary);
        }
        Path resultFile = target.result();
        Tally tally = new Tally();
        accountNames.forEach(name -> tally.accounts.put(name, new long[4]));
        BatchEncoding encoding = encodingFor(batch);
        // the state of each customer's message now: one still being tried shows empty (docs/customer-messages.md)
        java.util.Map<Long, String> notices = customerNotices.apply(batch.id());
        writeAtomically(resultFile, out -> writeResult(batch, encoding, rows, tally, accounts, notices, out));
        if (xlsx) {
            Path workbook = resultFile.resolveSibling(resultFile.getFileName().toString()
                    .replaceFirst("\\.result\\.csv$", ".result.xlsx"));
            try {
                writeAtomically(workbook, out -> ResultWorkbook.write(batch, rows, accounts, notices, out));
            } catch (IOException | RuntimeException e) {
                // the workbook is an extra: the CSV and the summary are the report, and they are written
                LOG.warn("The result workbook of {} could not be written ({}); the CSV report is written as usual",
                        batch.fileName(), e.getMessage());
            }
        }
        ReportSummary summary = new ReportSummary(batch.fileName(), batch.id(), tally.rows,
                tally.success + tally.failed + tally.pending, tally.success, tally.failed, tally.pending,
                tally.rejected, tally.charged, balanceBefore, balanceAfter, batch.startedAt(),
                finishedAt, batch.provider(), null, tally.queued);
        writeAtomically(summaryFile, out -> writeSummary(summary, accounts ? tally.accounts : null, accountBalances, out));
        delivery.deliver(reportsDir);
        return new ReportFiles(resultFile, summaryFile, summary);
    }

    /**
     * Writes a batch's report again after its outcomes changed (reconciliation), first copying the
     * report it replaces to {@code NAME.<why>-<yyyyMMdd-HHmmss>.result.csv / .summary.json}, so the
     * report the ERP may have read already is kept.
     */
    public ReportFiles writeAgainKeeping(BatchRecord batch, Consumer<Consumer<RowRecord>> rows, Long balanceAfter,
                                         Instant finishedAt, String why) throws IOException {
        Files.createDirectories(reportsDir);
        ReportPlacement.Target target = ReportPlacement.place(reportsDir, reportName(batch.fileName()), batch);
        String stamp = "." + why + "-" + ReportPlacement.STAMP.format(finishedAt);
        Path workbook = target.result().resolveSibling(target.result().getFileName().toString()
                .replaceFirst("\\.result\\.csv$", ".result.xlsx"));
        for (Path current : List.of(target.result(), target.summary(), workbook)) {
            if (Files.exists(current)) {
                String name = current.getFileName().toString();
                String ending = name.endsWith(".result.csv") ? ".result.csv" : name.endsWith(".result.xlsx") ? ".result.xlsx"
                        : ".summary.json";
                Path kept = current.resolveSibling(name.substring(0, name.length() - ending.length()) + stamp + ending);
                if (!Files.exists(kept)) {
                    Files.copy(current, kept, StandardCopyOption.COPY_ATTRIBUTES);
                }
            }
        }
        return write(batch, rows, balanceAfter, finishedAt);
    }

    private static final class Tally {
        /** Several accounts: per account (those of topup.providers first, in its order) success, failed, pending, charged. */
        final java.util.Map<String, long[]> accounts = new java.util.LinkedHashMap<>();
        long rows;
        long success;
        long failed;
        long pending;
        long rejected;
        long charged;
        /** Rows not sent yet: shown pending in the result file, counted apart in the summary. */
        long queued;

        /** A row sent, or to be sent, at its account: counted there (rejected and unsent rows are not). */
        void countAt(RowRecord row, ReportedRow r) {
            if (row.route() == null || row.sentAt() == null && (row.state() == org.topupbatch.journal.RowState.ACCEPTED
                    || row.state() == org.topupbatch.journal.RowState.WAITING)) {
                return;
            }
            long[] n = accounts.computeIfAbsent(row.account(), k -> new long[4]);
            switch (r.status()) {
                case ReportedRow.SUCCESS -> n[0]++;
                case ReportedRow.FAILED -> n[1]++;
                case ReportedRow.PENDING -> n[2]++;
                default -> { }
            }
            if (r.price() != null && (r.status().equals(ReportedRow.SUCCESS) || r.status().equals(ReportedRow.PENDING))) {
                n[3] += r.price();
            }
        }

        void count(RowRecord row, ReportedRow r) {
            rows++;
            // a row waiting for an earlier order's outcome (a repeat) is no more sent than a queued one
            if ((row.state() == org.topupbatch.journal.RowState.ACCEPTED || row.state() == org.topupbatch.journal.RowState.WAITING)
                    && r.status().equals(ReportedRow.PENDING)) {
                queued++;
                return;
            }
            switch (r.status()) {
                case ReportedRow.SUCCESS -> success++;
                case ReportedRow.FAILED -> failed++;
                case ReportedRow.PENDING -> pending++;
                default -> rejected++;
            }
            if (r.price() != null && (r.status().equals(ReportedRow.SUCCESS) || r.status().equals(ReportedRow.PENDING))) {
                charged += r.price();
            }
        }
    }

    private static void writeResult(BatchRecord batch, BatchEncoding encoding, Consumer<Consumer<RowRecord>> rows,
                                    Tally tally, boolean accounts, java.util.Map<Long, String> notices,
                                    OutputStream out) throws IOException {
        out.write(encoding.byteOrderMarkBytes());
        CharsetEncoder encoder = encoding.charset().newEncoder()
                .onMalformedInput(CodingErrorAction.REPLACE)
                .onUnmappableCharacter(CodingErrorAction.REPLACE);
        Writer writer = new BufferedWriter(new OutputStreamWriter(out, encoder));
        CSVFormat format = CSVFormat.RFC4180.builder().setDelimiter(batch.delimiter()).get();
        List<String> extraHeaders = batch.extraHeaders() == null ? List.of() : batch.extraHeaders();
        CSVPrinter printer = new CSVPrinter(writer, format);
        List<String> header = new ArrayList<>(COLUMNS);
        if (accounts) {
            header.addAll(ACCOUNT_COLUMNS);
        }
        if (!notices.isEmpty()) {
            header.add(CUSTOMER_COLUMN);
        }
        extraHeaders.forEach(h -> header.add(FormulaGuard.escape(h)));
        printer.printRecord(header);
        try {
            rows.accept(row -> {
                ReportedRow r = ReportedRow.of(row, batch.haltReason(), batch.held());
                tally.count(row, r);
                if (accounts) {
                    tally.countAt(row, r);
                }
                List<String> cells = new ArrayList<>(COLUMNS.size() + extraHeaders.size());
                cells.add(Long.toString(row.line()));
                cells.add(FormulaGuard.escape(row.refId()));
                cells.add(FormulaGuard.escape(row.productSku()));
                cells.add(FormulaGuard.escape(row.customerNo()));
                cells.add(FormulaGuard.escape(row.customerNoZone()));
                cells.add(r.status());
                cells.add(FormulaGuard.escape(row.serialNumber()));
                cells.add(r.price() == null ? "" : Long.toString(r.price()));
                cells.add(FormulaGuard.escape(r.message()));
                if (accounts) {
                    // a rejected row went to no account (also one rejected unsent after a move); a row not
                    // yet sent names where it will go
                    boolean routed = row.route() != null && row.state() != org.topupbatch.journal.RowState.REJECTED;
                    cells.add(routed ? FormulaGuard.escape(row.account()) : "");
                    cells.add(routed ? FormulaGuard.escape(row.orderRefId()) : "");
                }
                if (!notices.isEmpty()) {
                    cells.add(FormulaGuard.escape(notices.getOrDefault(row.id(), "")));
                }
                List<String> extras = row.extras() == null ? List.of() : row.extras();
                for (int i = 0; i < extraHeaders.size(); i++) {
                    cells.add(FormulaGuard.escape(i < extras.size() ? extras.get(i) : ""));
                }
                try {
                    printer.printRecord(cells);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
        printer.flush();
    }

    private static void writeSummary(ReportSummary s, java.util.Map<String, long[]> accounts,
                                     java.util.function.Function<String, Long> balances, OutputStream out) throws IOException {
        ObjectNode json = JSON.createObjectNode();
        json.put("file", s.file());
        json.put("batch", s.batch());
        json.put("rows", s.rows());
        json.put("submitted", s.submitted());
        json.put("success", s.success());
        json.put("failed", s.failed());
        json.put("pending", s.pending());
        json.put("rejected", s.rejected());
        json.put("queued", s.queued());
        json.put("charged", s.charged());
        json.put("balance_before", s.balanceBefore());
        json.put("balance_after", s.balanceAfter());
        json.put("started_at", iso(s.startedAt()));
        json.put("finished_at", iso(s.finishedAt()));
        json.put("provider", s.provider());
        if (s.error() != null) {
            json.put("error", s.error());
        }
        if (accounts != null) {
            ObjectNode each = json.putObject("accounts");
            accounts.forEach((name, n) -> {
                ObjectNode a = each.putObject(name);
                a.put("submitted", n[0] + n[1] + n[2]);
                a.put("success", n[0]);
                a.put("failed", n[1]);
                a.put("pending", n[2]);
                a.put("charged", n[3]);
                Long balance = balances.apply(name);
                if (balance == null) {
                    a.putNull("balance_after");
                } else {
                    a.put("balance_after", balance);
                }
            });
        }
        out.write(JSON.writeValueAsBytes(json));
        out.write('\n');
    }

    private static String iso(Instant at) {
        return at == null ? null : DateTimeFormatter.ISO_INSTANT.format(at.truncatedTo(ChronoUnit.SECONDS));
    }

    /** What a file written by {@link #writeAtomically} holds. */
    public interface Content {
        void writeTo(OutputStream out) throws IOException;
    }

    /**
     * A process killed while writing leaves its temporary file behind (the finally below never ran);
     * the next write of the same report removes it, so only whole reports stay in the folder. Only one
     * process writes a journal's reports, and it writes one report at a time.
     */
    private static void removeLeftTempFiles(Path dir, String prefix) throws IOException {
        try (DirectoryStream<Path> left = Files.newDirectoryStream(dir, p -> {
            String name = p.getFileName().toString();
            return name.startsWith(prefix) && name.endsWith(".tmp");
        })) {
            for (Path p : left) {
                Files.deleteIfExists(p);
            }
        }
    }

    /**
     * Temporary name starts with '.' and ends with '.tmp' so nobody picks it up as a report. Created
     * without explicit attributes (not {@code Files.createTempFile}, which makes it 0600), so it gets
     * the mode the process's umask gives any new file.
     */
    public static void writeAtomically(Path target, Content content) throws IOException {
        Path dir = target.getParent();
        removeLeftTempFiles(dir, "." + target.getFileName() + ".");
        Path temp = dir.resolve("." + target.getFileName() + "." + Long.toHexString(RANDOM.nextLong()) + ".tmp");
        try {
            try (FileChannel channel = FileChannel.open(temp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
                OutputStream out = Channels.newOutputStream(channel);
                content.writeTo(out);
                out.flush();
                channel.force(true);
            }
            org.topupbatch.journal.CrashPoints.pass(org.topupbatch.journal.CrashPoints.REPORT_BEFORE_RENAME);
            try {
                Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                // only on file systems without atomic rename; same folder, so this is still a rename
                Files.move(temp, target, StandardCopyOption.REPLACE_EXISTING);
            }
        } finally {
            Files.deleteIfExists(temp);
        }
    }
}
