package org.topupbatch.intake;

import org.topupbatch.provider.PriceCatalog;
import org.topupbatch.provider.PriceListUnavailableException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;
import org.apache.camel.Exchange;
import org.apache.camel.impl.DefaultCamelContext;
import org.apache.camel.support.DefaultExchange;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.slf4j.LoggerFactory;
import org.topupbatch.journal.BatchRecord;
import org.topupbatch.journal.BatchWriter;
import org.topupbatch.journal.IntakeJournal;
import org.topupbatch.journal.JournalException;
import org.topupbatch.provider.Balance;
import org.topupbatch.provider.ProviderError;
import org.topupbatch.provider.ProviderException;
import org.topupbatch.provider.ProviderGateway;
import org.topupbatch.settings.BalancePolicy;

/**
 * BatchIntake when a file's intake fails: a failure of the file's counts, and the third sets the
 * file aside (error folder, a note, the batch recorded like an unreadable one); an outage of the
 * journal or the provider never does. The failures come from collaborators, as a bug or a file too
 * large for the heap would make them.
 */
class BatchIntakeSetAsideTest {

    static final String POISON = "ref_id,product_sku,customer_no\nP-1,BOOM,12345678\n";
    static final String GOOD = "ref_id,product_sku,customer_no\nG-1,FF100,12345678\n";

    @TempDir
    Path dir;
    Path inbox;
    Path archive;
    Path errors;
    final FakeJournal journal = new FakeJournal();
    /** What the price list does when asked for BOOM; every other SKU is in {@link TestCatalog}. */
    Supplier<RuntimeException> boomFailure;
    Error boomError;
    RuntimeException balanceFailure;
    BatchIntake intake;
    final DefaultCamelContext camel = new DefaultCamelContext();
    final ListAppender<ILoggingEvent> log = new ListAppender<>();

    @BeforeEach
    void setUp() throws IOException {
        inbox = Files.createDirectories(dir.resolve("inbox"));
        archive = dir.resolve("data").resolve("archive");
        errors = dir.resolve("data").resolve("error");
        TestCatalog prices = new TestCatalog();
        PriceCatalog catalog = sku -> {
            if (sku.equals("BOOM") && boomError != null) {
                throw boomError;
            }
            if (sku.equals("BOOM") && boomFailure != null) {
                throw boomFailure.get();
            }
            return sku.equals("BOOM") ? prices.find("FF100") : prices.find(sku);
        };
        ProviderGateway gateway = new ProviderGateway(null, null) {
            @Override
            public Balance checkBalance() {
                if (balanceFailure != null) {
                    throw balanceFailure;
                }
                return new Balance(1_000_000, "IDR", "gold", "test");
            }
        };
        intake = new BatchIntake(journal, org.topupbatch.provider.Accounts.lone(gateway), catalog, CustomerRules.loadDefault(), BalancePolicy.BEST_EFFORT,
                archive, Clock.fixed(Instant.parse("2026-11-21T13:15:57Z"), ZoneOffset.UTC), "sandbox", null);
        log.start();
        ((Logger) LoggerFactory.getLogger(BatchIntake.class)).addAppender(log);
    }

    @AfterEach
    void tearDown() {
        ((Logger) LoggerFactory.getLogger(BatchIntake.class)).detachAppender(log);
    }

    @ParameterizedTest
    @ValueSource(strings = {"runtime", "out-of-memory", "stack-overflow", "unreadable-file", "journal-refuses-a-value"})
    void a_file_whose_intake_fails_three_times_is_set_aside_with_a_note_and_recorded_like_an_unreadable_one(String kind)
            throws Exception {
        String expectedCause = fail(kind);
        Path poison = drop("poison.csv", POISON);

        assertThatThrownBy(() -> take(poison)).as("attempt 1").isNotNull();
        assertThat(take(drop("good.csv", GOOD))).as("the inbox goes on").startsWith(archive.toAbsolutePath() + "/good.");
        assertThatThrownBy(() -> take(poison)).as("attempt 2").isNotNull();
        assertThat(journal.unreadable).isEmpty();
        assertThat(intake.setAside()).isZero();

        String errorAs = take(poison);

        String hash = errorAs.substring(errorAs.length() - 16, errorAs.length() - 4);
        assertThat(Path.of(errorAs)).hasParentRaw(errors.toAbsolutePath()).hasFileName("poison.20261121-131557." + hash + ".csv");
        assertThat(hash).matches("[0-9a-f]{12}");
        Path note = Path.of(errorAs + ".txt");
        assertThat(note).exists();
        String text = Files.readString(note);
        assertThat(text)
                .contains("poison.csv was set aside by topup-batch at 2026-11-21T13:15:57Z")
                .contains("failed 3 times")
                .contains("Cause: " + expectedCause)
                .contains("move poison.20261121-131557." + hash + ".csv back into the inbox as poison.csv")
                .doesNotContain("\tat ");
        assertThat(journal.unreadable).singleElement().satisfies(u -> {
            assertThat(u.file()).isEqualTo("poison.csv");
            assertThat(u.archivedAs()).isEqualTo(errorAs);
            assertThat(u.error()).startsWith("intake failed 3 times, the file is set aside for the operator: ")
                    .contains(expectedCause).doesNotContain("\n");
        });
        assertThat(intake.setAside()).isEqualTo(1);
        assertThat(warnings()).filteredOn(l -> l.startsWith("Batch poison.csv: intake failed"))
                .hasSize(3)
                .satisfiesExactly(
                        l -> assertThat(l).contains("attempt 1 of 3").contains(expectedCause),
                        l -> assertThat(l).contains("attempt 2 of 3").contains(expectedCause),
                        l -> assertThat(l).contains("attempt 3 of 3").contains("set aside as " + errorAs));
    }

    @ParameterizedTest
    @ValueSource(strings = {"journal-unreachable", "provider-unreachable", "credentials-refused", "price-list-unavailable"})
    void an_outage_of_the_journal_or_the_provider_is_never_counted_against_the_file(String kind) throws Exception {
        fail(kind);
        Path poison = drop("poison.csv", POISON);

        for (int i = 0; i < 5; i++) {
            assertThatThrownBy(() -> take(poison)).as("try %d", i + 1).isNotNull();
        }

        assertThat(journal.unreadable).isEmpty();
        assertThat(errors).doesNotExist();
        assertThat(intake.setAside()).isZero();
        assertThat(warnings()).noneMatch(l -> l.contains("attempt"));
    }

    @Test
    void a_file_taken_after_failures_starts_again_at_zero() throws Exception {
        boomFailure = () -> new IllegalStateException("not yet");
        Path poison = drop("poison.csv", POISON);
        assertThatThrownBy(() -> take(poison)).isNotNull();
        assertThatThrownBy(() -> take(poison)).isNotNull();
        boomFailure = null;
        assertThat(take(poison)).startsWith(archive.toAbsolutePath().toString());

        boomFailure = () -> new IllegalStateException("again");
        Path again = drop("poison.csv", POISON);
        assertThatThrownBy(() -> take(again)).isNotNull();
        assertThatThrownBy(() -> take(again)).isNotNull();
        assertThat(journal.unreadable).isEmpty();
        assertThat(take(again)).startsWith(errors.toAbsolutePath().toString());
    }

    @Test
    void a_file_set_aside_and_moved_back_into_the_inbox_is_taken_as_a_new_batch() throws Exception {
        boomFailure = () -> new IllegalStateException("a bug");
        Path poison = drop("poison.csv", POISON);
        for (int i = 0; i < 2; i++) {
            assertThatThrownBy(() -> take(poison)).isNotNull();
        }
        String errorAs = take(poison);
        // what the operator does after the fix: the file component had moved it to errorAs
        boomFailure = null;
        journal.last = new BatchRecord(7, "poison.csv", ',', List.of(), errorAs, "intake failed", null, null,
                Instant.now(), null, null, false);
        journal.opened.clear();

        String archivedAs = take(poison);

        assertThat(archivedAs).startsWith(archive.toAbsolutePath() + "/poison.");
        assertThat(journal.opened).as("recorded anew, not taken for a batch recorded before a crash").containsExactly("poison.csv");
    }

    /** Arms the failure; returns the one-line cause the note and the summary must name. */
    private String fail(String kind) throws IOException {
        switch (kind) {
            case "runtime" -> {
                boomFailure = () -> new IllegalStateException("a bug for BOOM\n\tat somewhere");
                return "IllegalStateException: a bug for BOOM";
            }
            case "out-of-memory" -> {
                boomError = new OutOfMemoryError("Java heap space");
                return "OutOfMemoryError: Java heap space";
            }
            case "stack-overflow" -> {
                boomError = new StackOverflowError();
                return "StackOverflowError";
            }
            case "unreadable-file" -> {
                boomFailure = () -> new UncheckedIOException("cannot read batch poison.csv",
                        new java.nio.file.AccessDeniedException("poison.csv"));
                return "UncheckedIOException: cannot read batch poison.csv (AccessDeniedException: poison.csv)";
            }
            case "journal-refuses-a-value" -> {
                journal.failure = () -> new JournalException("cannot record batch poison.csv: value too long",
                        new SQLException("Value too long for column", "22001"));
                return "JournalException: cannot record batch poison.csv: value too long";
            }
            case "journal-unreachable" -> journal.failure = () -> new JournalException("cannot record batch poison.csv",
                    new SQLException("Connection refused", "08001"));
            case "provider-unreachable" -> balanceFailure = new ProviderException("check-balance",
                    ProviderError.CONNECTION_FAILED, 0, false, null, null, null);
            case "credentials-refused" -> balanceFailure = new ProviderException("check-balance",
                    ProviderError.INVALID_SIGNATURE, 401, false, "bad signature", null, null);
            case "price-list-unavailable" -> boomFailure = () -> new PriceListUnavailableException(
                    "the price list could not be fetched", null);
            default -> throw new IllegalArgumentException(kind);
        }
        return null;
    }

    private Path drop(String name, String content) throws IOException {
        return Files.writeString(inbox.resolve(name), content, StandardCharsets.UTF_8);
    }

    /**
     * One take as the intake route makes it; returns where the file component is to move the file.
     * An Error it lets through comes back as an AssertionError (JUnit would abort the whole test JVM
     * on an OutOfMemoryError).
     */
    private String take(Path file) {
        Exchange exchange = new DefaultExchange(camel);
        try {
            intake.take(file.getFileName().toString(), file.toString(), exchange);
        } catch (VirtualMachineError e) {
            throw new AssertionError("take let through " + e, e);
        }
        return exchange.getIn().getHeader(BatchIntake.ARCHIVED_AS, String.class);
    }

    private List<String> warnings() {
        return log.list.stream().filter(e -> e.getLevel().toString().equals("WARN"))
                .map(ILoggingEvent::getFormattedMessage).toList();
    }

    record Unreadable(String file, String error, String archivedAs) {
    }

    /** The journal as intake sees it, in memory. */
    static final class FakeJournal implements IntakeJournal {
        @Override
        public java.util.Map<String, org.topupbatch.journal.EarlierOrder> repeatsAmong(java.util.Collection<String> keys,
                                                                                   long windowStart) {
            return java.util.Map.of();
        }

        final List<Unreadable> unreadable = new ArrayList<>();
        final List<String> opened = new ArrayList<>();
        Supplier<RuntimeException> failure;
        BatchRecord last;

        @Override
        public BatchWriter openBatch(String fileName, char delimiter, org.topupbatch.journal.BatchEncoding encoding,
                                     List<String> extraHeaders, String archivedAs, Long balanceAtIntake, String provider) {
            if (failure != null && fileName.equals("poison.csv")) {
                throw failure.get();
            }
            opened.add(fileName);
            return new InMemoryBatchWriter();
        }

        @Override
        public Set<String> ordersAmong(Collection<String> refIds) {
            return Set.of();
        }

        @Override
        public Optional<BatchRecord> lastBatchForFile(String fileName) {
            return Optional.ofNullable(last).filter(b -> b.fileName().equals(fileName));
        }

        @Override
        public long reservedAmount() {
            return 0;
        }

        @Override
        public long recordUnreadableBatch(String fileName, String error, String archivedAs, String provider) {
            unreadable.add(new Unreadable(fileName, error, archivedAs));
            return unreadable.size();
        }
    }
}
