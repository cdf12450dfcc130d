package org.topupbatch.config;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.apache.camel.BindToRegistry;
import org.topupbatch.journal.JdbcJournal;
import org.topupbatch.journal.Journal;
import org.topupbatch.journal.JournalException;
import org.topupbatch.journal.JournalInUseException;
import org.topupbatch.journal.RowFinalListener;
import org.topupbatch.run.ProviderSwitchCheck;
import org.topupbatch.run.StartupRefusal;
import org.topupbatch.settings.ProviderName;
import org.topupbatch.settings.Settings;

/**
 * The journal: opened (and migrated) once, by whoever needs it first, or ahead of time on a thread
 * of its own while Camel Main loads ({@link #openEarly}). A journal that cannot be opened stops the
 * start with a {@link StartupRefusal} naming the setting that points at it.
 */
public final class JournalConfiguration extends AreaConfiguration implements AutoCloseable {

    private final Settings settings;
    private JdbcJournal journal;
    /** The journal being opened beside Camel's own start. */
    private CompletableFuture<JdbcJournal> opening;

    public JournalConfiguration(Settings settings) {
        this.settings = settings;
    }

    /**
     * Starts opening the journal while Camel Main loads its routes: about a second of every start
     * that no longer waits in line. Every bean that uses the journal still waits for it in
     * {@link #journal()}, which fails the start with the same refusal when it cannot be opened.
     */
    public synchronized void openEarly() {
        if (journal == null && opening == null) {
            opening = CompletableFuture.supplyAsync(this::open, r -> new Thread(r, "journal-open").start());
        }
    }

    /** The embedded H2 database admits one process at a time: whoever shares the process reads it through this one. */
    @BindToRegistry("journal")
    public synchronized Journal journal() {
        if (journal == null) {
            journal = opening == null ? open() : awaitOpening();
        }
        return journal;
    }

    /** The journal's outbox of outgoing messages (docs/operating.md#notifications). */
    public org.topupbatch.journal.Outbox outbox() {
        journal();
        return journal.outbox();
    }

    /** Which customers a row's SUCCESS sends the voucher to (docs/customer-messages.md); set before any route runs. */
    public void reachCustomers(org.topupbatch.journal.CustomerChannels channels) {
        journal();
        journal.reachCustomers(channels);
    }

    /** Who hears of rows turning final (the report route); set before any route runs. */
    public void onRowsFinal(RowFinalListener listener) {
        journal();
        journal.onRowsFinal(listener);
    }

    private JdbcJournal awaitOpening() {
        try {
            return opening.join();
        } catch (CompletionException e) {
            throw e.getCause() instanceof RuntimeException r ? r : e;
        } finally {
            opening = null;
        }
    }

    private JdbcJournal open() {
        try {
            JdbcJournal opened = JdbcJournal.open(settings.folders().data(), settings.journal().url(), settings.journal().user(), settings.journal().password());
            String mixed = ProviderSwitchCheck.problem(opened.providersServed(), ProviderName.of(settings),
                    ProviderSwitchCheck.where(settings.journal(), settings.folders().data()));
            if (mixed != null) {
                opened.close();
                throw new StartupRefusal(mixed);
            }
            return opened;
        } catch (JournalInUseException e) {
            throw new StartupRefusal(e.getMessage());
        } catch (JournalException e) {
            if (settings.journal().url() == null) {
                throw new StartupRefusal("topup.data " + settings.folders().data().toAbsolutePath() + ": " + e.getMessage()
                        + " (set TOPUP_DATA to a folder this user may write)");
            }
            throw new StartupRefusal("topup.db.url: " + e.getMessage()
                    + " (check TOPUP_DB_URL, TOPUP_DB_USER and TOPUP_DB_PASSWORD)");
        }
    }

    /** Closes the journal, also one still being opened by a start that ended before anyone asked for it (its lock goes with it). */
    @Override
    public synchronized void close() {
        if (journal != null) {
            journal.close();
            journal = null;
        }
        if (opening != null) {
            try {
                opening.join().close();
            } catch (RuntimeException e) {
                // it never opened: nothing to close
            }
            opening = null;
        }
    }
}
