package org.topupbatch.config;

import java.time.Clock;
import java.util.function.Function;
import java.util.function.Supplier;
import org.apache.camel.util.function.Suppliers;
import org.topupbatch.journal.Journal;
import org.topupbatch.settings.AccountList;
import org.topupbatch.settings.FolderSettings;
import org.topupbatch.settings.JournalSettings;
import org.topupbatch.settings.MoneyGuardSettings;
import org.topupbatch.settings.PickUpSettings;
import org.topupbatch.settings.ProviderAccount;
import org.topupbatch.settings.ProviderSettings;
import org.topupbatch.settings.ReconcileSettings;
import org.topupbatch.settings.ReportSettings;
import org.topupbatch.settings.Settings;
import org.topupbatch.settings.SettingsException;
import org.topupbatch.settings.TrackSettings;

/**
 * The settings an operator command works with, read when first asked (so that a usage error is said
 * before a bad setting). A command receives the groups it uses, and provider sessions built here from
 * the whole, which stays in settings/ and config/ (issue 33).
 */
public final class CommandSettings {

    private final Function<String, String> lookup;
    /** Read once, when first asked; a refused read is not kept, so asking again says the same again. */
    private final Supplier<Settings> settings;

    public CommandSettings(Function<String, String> lookup) {
        this.lookup = lookup;
        this.settings = Suppliers.memorize(() -> Settings.load(lookup));
    }

    /** @throws SettingsException naming the bad setting */
    private Settings all() {
        return settings.get();
    }

    /**
     * Reads the settings now, if not read yet, and returns these.
     *
     * @throws SettingsException naming the bad setting
     */
    public CommandSettings read() {
        all();
        return this;
    }

    public ProviderSettings provider() {
        return all().provider();
    }

    /** Every account a run orders at, as one list ({@link AccountList}). */
    public java.util.List<ProviderAccount> accounts() {
        return AccountList.of(all());
    }

    /** The accounts' names in order; null for the unnamed account of topup.base-url. */
    public java.util.List<String> accountNames() {
        return AccountList.names(all());
    }

    public FolderSettings folders() {
        return all().folders();
    }

    public PickUpSettings pickUp() {
        return all().pickUp();
    }

    public JournalSettings journal() {
        return all().journal();
    }

    public TrackSettings track() {
        return all().track();
    }

    public MoneyGuardSettings guards() {
        return all().guards();
    }

    public ReportSettings report() {
        return all().report();
    }

    public ReconcileSettings reconcile() {
        return all().reconcile();
    }

    /**
     * The provider session of the single-account settings (the embedded sandbox when no provider is
     * set), its calls counted in {@code journal}'s rate budget beside a running service; the caller closes it.
     */
    public ProviderSession providerSession(Journal journal, Clock clock) {
        return new ProviderSession(all(), lookup, journal, clock);
    }

    /** The provider session of one named account of topup.providers; the caller closes it. */
    public ProviderSession providerSession(ProviderAccount account, Journal journal, Clock clock) {
        return ProviderSession.forAccount(all(), account, journal, clock);
    }
}
