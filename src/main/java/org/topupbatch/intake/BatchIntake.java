package org.topupbatch.intake;

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
import org.topupbatch.provider.ProviderGateway;

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
    private final ProviderGateway gateway;
    private final PriceCatalog catalog;
    private final CustomerRules rules;
    private final BalancePolicy policy;
    private final Path archive;
    private final Clock clock;
    /** Recorded with each batch, so that its report names the provider that served it. */
    private final String provider;
    /** {@code topup.input-charset}: null for auto. */
    private final Charset inputCharset;

    public BatchIntake(IntakeJournal journal, ProviderGateway gateway, PriceCatalog catalog, CustomerRules rules,
                       BalancePolicy policy, Path archive, Clock clock, String provider, Charset inputCharset) {
        this.journal = journal;
        this.gateway = gateway;
        this.catalog = catalog;
        this.rules = rules;
        this.policy = policy;
        this.archive = archive;
        this.clock = clock;
        this.provider = provider;
        this.inputCharset = inputCharset;
    }

    /** Called by the intake route for each complete file; sets {@link #ARCHIVED_AS}. */
    public void take(@Header(Exchange.FILE_NAME_ONLY) String name, @Header(Exchange.FILE_PATH) String path, Exchange exchange) {
        Path file = Path.of(path);
        String hash = shortHash(file);
        Optional<BatchRecord> earlier = journal.lastBatchForFile(name);
        if (earlier.isPresent() && earlier.get().archivedAs() != null
                && earlier.get().archivedAs().contains("." + hash + ".")
                && !Files.exists(Path.of(earlier.get().archivedAs()))) {
            LOG.info("Batch {} was recorded before the last run stopped; archiving it now", name);
            exchange.getIn().setHeader(ARCHIVED_AS, earlier.get().archivedAs());
            return;
        }
        String archivedAs = archive.resolve(baseName(name) + "." + STAMP.format(clock.instant()) + "." + hash + ".csv")
                .toAbsolutePath().toString();
        record(name, file, archivedAs);
        exchange.getIn().setHeader(ARCHIVED_AS, archivedAs);
    }

    private void record(String name, Path file, String archivedAs) {
        try {
            BatchEncoding[] read = {null};
            PlanSummary summary = new BatchCheck(catalog, rules, policy, inputCharset).check(file, (delimiter, encoding, extras) -> {
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

    static String baseName(String name) {
        return name.toLowerCase(java.util.Locale.ROOT).endsWith(".csv") ? name.substring(0, name.length() - 4) : name;
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
