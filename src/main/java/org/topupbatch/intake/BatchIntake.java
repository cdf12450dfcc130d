package org.topupbatch.intake;

import org.topupbatch.provider.PriceCatalog;

import org.topupbatch.settings.BalancePolicy;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.Charset;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.HexFormat;
import java.util.Optional;
import org.apache.camel.Exchange;
import org.apache.camel.Header;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.topupbatch.journal.BatchEncoding;
import org.topupbatch.journal.BatchRecord;
import org.topupbatch.journal.BatchWriter;
import org.topupbatch.journal.IntakeJournal;
import org.topupbatch.provider.Accounts;

/**
 * Takes one batch file: reads and checks every row, records batch and rows in the journal in
 * one transaction, and names the archive file the intake route then moves it to.
 *
 * <p>A crash between the journal commit and the move leaves the file in the inbox although its
 * rows are recorded. The archive name carries the file's content hash, so on the next pick-up
 * that case is recognised (same name, same content, archive file absent) and the file is only
 * archived, instead of being taken as a re-drop whose rows all come back "already submitted".
 */
public class BatchIntake {

    /** Header the intake route's file endpoint moves the file by. */
    public static final String ARCHIVED_AS = "TopupArchivedAs";

    private static final Logger LOG = LoggerFactory.getLogger(BatchIntake.class);
    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss").withZone(ZoneOffset.UTC);

    private final IntakeJournal journal;
    private final Accounts gateway;
    private final PriceCatalog catalog;
    private final CustomerRules rules;
    private final BalancePolicy policy;
    private final Path archive;
    /** Beside the archive: files whose intake failed {@link IntakeAttempts#MAX_ATTEMPTS} times. */
    private final Path errorFolder;
    private final IntakeAttempts attempts = new IntakeAttempts();
    private final Clock clock;
    /** Recorded with each batch, so that its report names the provider that served it. */
    private final String provider;
    /** {@code topup.input-charset}: null for auto. */
    private final Charset inputCharset;
    private final java.time.Duration repeatWindow;
    /** A router on the accounts' price lists as they are now, made for each batch. */
    private java.util.function.Supplier<RowRouter> routers;

    /** Each batch's rows are routed by a router made when the batch is taken (the run always routes). */
    public BatchIntake routedBy(java.util.function.Supplier<RowRouter> routers) {
        this.routers = routers;
        return this;
    }

    public BatchIntake(IntakeJournal journal, Accounts gateway, PriceCatalog catalog, CustomerRules rules,
                       BalancePolicy policy, Path archive, Clock clock, String provider, Charset inputCharset) {
        this(journal, gateway, catalog, rules, policy, archive, clock, provider, inputCharset, java.time.Duration.ZERO);
    }

    public BatchIntake(IntakeJournal journal, Accounts gateway, PriceCatalog catalog, CustomerRules rules,
                       BalancePolicy policy, Path archive, Clock clock, String provider, Charset inputCharset,
                       java.time.Duration repeatWindow) {
        this.repeatWindow = repeatWindow;
        this.journal = journal;
        this.gateway = gateway;
        this.catalog = catalog;
        this.rules = rules;
        this.policy = policy;
        this.archive = archive;
        this.errorFolder = archive.toAbsolutePath().resolveSibling("error");
        this.clock = clock;
        this.provider = provider;
        this.inputCharset = inputCharset;
    }

    /**
     * Called by the intake route for each complete file; sets {@link #ARCHIVED_AS}. A failure that
     * is the file's (not an outage, see {@link IntakeAttempts#outage}) is thrown again, so that the
     * file stays in the inbox for the next poll, until its {@link IntakeAttempts#MAX_ATTEMPTS}th:
     * then the file is recorded like an unreadable batch and {@link #ARCHIVED_AS} names the error folder.
     */
    public void take(@Header(Exchange.FILE_NAME_ONLY) String name, @Header(Exchange.FILE_PATH) String path, Exchange exchange) {
        Path file = Path.of(path);
        String hash = null;
        try {
            hash = shortHash(file);
            exchange.getIn().setHeader(ARCHIVED_AS, takeIn(name, file, hash));
            attempts.forget(name, hash);
        } catch (RuntimeException | OutOfMemoryError | StackOverflowError failure) {
            // Catching OutOfMemoryError is safe here: the allocation that failed was made for this one
            // file's rows (reader buffers, a record, a chunk of rows) on this thread, and all of it is
            // unreachable once the stack has unwound to here; the journal transaction was rolled back
            // on the way. The heap is as it was before the file, and the inbox goes on with the next one.
            String errorAs = setAsideAfterLastAttempt(name, hash, failure);
            if (errorAs == null) {
                throw failure;
            }
            exchange.getIn().setHeader(ARCHIVED_AS, errorAs);
        }
    }

    /** Files set aside since the process started (once mode ends with exit 2 when there are any). */
    public int setAside() {
        return attempts.setAside();
    }

    private String takeIn(String name, Path file, String hash) {
        Optional<BatchRecord> earlier = journal.lastBatchForFile(name);
        if (earlier.isPresent() && earlier.get().archivedAs() != null
                && earlier.get().archivedAs().contains("." + hash + ".")
                && !Path.of(earlier.get().archivedAs()).startsWith(errorFolder)
                && !Files.exists(Path.of(earlier.get().archivedAs()))) {
            LOG.info("Batch {} was recorded before the last run stopped; archiving it now", name);
            return earlier.get().archivedAs();
        }
        String archivedAs = storedAs(archive, name, clock.instant(), hash).toAbsolutePath().toString();
        record(name, file, archivedAs);
        return archivedAs;
    }

    /**
     * Counts a failed intake; at the last attempt writes the note, records the batch like an
     * unreadable one and returns where the file goes. Null: an outage or an attempt before the
     * last, the file stays in the inbox. (A file set aside and moved back into the inbox is taken
     * afresh: {@link #takeIn} never takes a batch in the error folder for one recorded before a crash.)
     */
    private String setAsideAfterLastAttempt(String name, String hash, Throwable failure) {
        if (IntakeAttempts.outage(failure)) {
            return null;
        }
        String key = hash == null ? "unread" : hash;
        int attempt = attempts.failed(name, key);
        String cause = IntakeAttempts.cause(failure);
        if (attempt < IntakeAttempts.MAX_ATTEMPTS) {
            LOG.warn("Batch {}: intake failed, attempt {} of {}, trying again on the next poll: {}", name, attempt,
                    IntakeAttempts.MAX_ATTEMPTS, cause);
            return null;
        }
        Instant now = clock.instant();
        Path errorAs = storedAs(errorFolder, name, now, key);
        LOG.warn("Batch {}: intake failed, attempt {} of {}, set aside as {}: {}", name, attempt,
                IntakeAttempts.MAX_ATTEMPTS, errorAs, cause);
        try {
            IntakeAttempts.writeNote(errorAs, name, now, cause);
        } catch (IOException e) {
            LOG.warn("Batch {}: no note beside it in {}: {}", name, errorFolder, e.toString());
        }
        journal.recordUnreadableBatch(name, "intake failed " + attempt + " times, the file is set aside for the operator: "
                + cause, errorAs.toString(), provider);
        attempts.forget(name, key);
        attempts.countSetAside();
        return errorAs.toString();
    }

    private void record(String name, Path file, String archivedAs) {
        try {
            org.topupbatch.journal.CrashPoints.failIfAsked(org.topupbatch.journal.CrashPoints.INTAKE_READ, name);
            BatchEncoding[] read = {null};
            PlanSummary summary = new BatchCheck(catalog, rules, policy, inputCharset, repeatWindow, clock)
                    .routedBy(routers == null ? null : routers.get()).check(file, (delimiter, encoding, extras) -> {
                read[0] = encoding;
                // recorded as the batch's balance_before until its first order reads a newer one
                long balanceRead = gateway.checkBalance().balance();
                return new BatchCheck.Opened(journal.openBatch(name, delimiter, encoding, extras, archivedAs, balanceRead,
                        provider), balanceRead - journal.reservedAmount());
            }, BatchPlanner.RowListener.NONE);
            org.topupbatch.journal.CrashPoints.pass(org.topupbatch.journal.CrashPoints.INTAKE_AFTER_COMMIT);
            LOG.info("Batch {}: {} rows, {} accepted ({} IDR), {} rejected; read as {}", name, summary.rows(),
                    summary.accepted(), summary.totalPrice(), summary.rejected(), read[0].shown());
        } catch (UnreadableBatchException e) {
            LOG.warn("Batch {} cannot be read: {}", name, e.getMessage());
            journal.recordUnreadableBatch(name, e.getMessage(), archivedAs, provider);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read batch " + name, e);
        }
    }

    /** Where a taken file is kept, in the archive or the error folder: NAME.<time>.<content hash>.csv. */
    private static Path storedAs(Path folder, String name, Instant when, String hash) {
        String ext = name.toLowerCase(java.util.Locale.ROOT).endsWith(".xlsx") ? ".xlsx" : ".csv";
        return folder.resolve(baseName(name) + "." + STAMP.format(when) + "." + hash + ext);
    }

    static String baseName(String name) {
        String lower = name.toLowerCase(java.util.Locale.ROOT);
        return lower.endsWith(".csv") ? name.substring(0, name.length() - 4)
                : lower.endsWith(".xlsx") ? name.substring(0, name.length() - 5) : name;
    }

    private static String shortHash(Path file) {
        try (InputStream in = new DigestInputStream(Files.newInputStream(file), MessageDigest.getInstance("SHA-256"))) {
            in.transferTo(java.io.OutputStream.nullOutputStream());
            return HexFormat.of().formatHex(((DigestInputStream) in).getMessageDigest().digest()).substring(0, 12);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read batch " + file.getFileName(), e);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
