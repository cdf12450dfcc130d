package org.topupbatch.settings;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * Every {@code topup.*} setting, read once and checked at start-up, so that a bad value stops
 * the product with one line naming the setting instead of failing later in the middle of a batch.
 * The settings come in groups, one per area of the product, the way camel-main's
 * {@code *ConfigurationProperties} classes group their options; each group declares its keys once
 * ({@link Setting}) and each area is handed only its group. This whole stays in settings/ and config/.
 *
 * <p>Values come from a lookup that already applies the precedence docs/settings.md#settings documents
 * (environment over system property over application.properties).
 */
public record Settings(
        ProviderSettings provider,
        FolderSettings folders,
        PickUpSettings pickUp,
        WebhookSettings webhook,
        JournalSettings journal,
        SubmitSettings submit,
        TrackSettings track,
        MoneyGuardSettings guards,
        ReportSettings report,
        ReconcileSettings reconcile,
        NotifySettings notifications,
        ManagementSettings management,
        // inbox and reports on an SFTP server: then the folders' inbox and reports are local folders under data
        SftpSettings sftp,
        IntakeSettings intake,
        // the outbox: callbacks to the ERP and the back-off of every outgoing message (docs/callbacks.md)
        CallbackSettings callbacks,
        // the voucher to the customer (docs/customer-messages.md)
        CustomerSettings customers) {

    /** Every key a group declares, in the order docs/settings.md lists the areas. */
    public static List<Setting<?>> declared() {
        List<Setting<?>> all = new ArrayList<>();
        for (List<Setting<?>> group : List.of(ProviderSettings.DECLARED, FolderSettings.DECLARED, PickUpSettings.DECLARED,
                WebhookSettings.DECLARED, TrackSettings.DECLARED, MoneyGuardSettings.DECLARED, NotifySettings.DECLARED,
                ReportSettings.DECLARED, IntakeSettings.DECLARED, ReconcileSettings.DECLARED, JournalSettings.DECLARED,
                SubmitSettings.DECLARED, ManagementSettings.DECLARED, ManagementLogin.DECLARED, SftpLogin.DECLARED,
                CallbackSettings.DECLARED, CustomerSettings.DECLARED)) {
            all.addAll(group);
        }
        return List.copyOf(all);
    }

    /** The secrets (api, webhook) and the database password are never shown. */
    @Override
    public String toString() {
        return "Settings[baseUrl=" + (provider.embeddedSandbox() ? "(embedded sandbox)" : provider.baseUrl())
                + ", apiKey=" + provider.apiKey() + ", inbox=" + inboxShown() + ", reports=" + reportsShown()
                + ", data=" + folders.data() + ", mode=" + pickUp.mode()
                + ", schedule=" + (pickUp.schedule() == null ? "" : pickUp.schedule())
                + ", webhook=" + webhook.host() + ":" + webhook.port() + webhook.path()
                + ", pendingTimeout=" + track.pendingTimeout() + ", balancePolicy=" + guards.balancePolicy()
                + ", db=" + (journal.url() == null ? "(embedded H2)" : journal.url())
                + ", management=" + (management.enabled() ? management.host() + ":" + management.port() : "off")
                + (provider.accounts().isEmpty() ? "" : ", accounts=" + provider.accountNames()) + "]";
    }

    /** The inbox as the operator gave it: the SFTP folder (without secrets) or the local path. */
    public String inboxShown() {
        return sftp.inbox() != null ? sftp.inbox().toString() : folders.inbox().toAbsolutePath().toString();
    }

    /** The reports folder as the operator gave it: the SFTP folder (without secrets) or the local path. */
    public String reportsShown() {
        return sftp.reports() != null ? sftp.reports().toString() : folders.reports().toAbsolutePath().toString();
    }

    /**
     * Whether {@code reconcile} and the daily reconciliation run: when every account can be reconciled,
     * each on its own, by its history or, a named account without one, by a status check of each of the
     * journal's orders (docs/reconcile.md#reconcile-with-the-provider).
     */
    public boolean reconcilable() {
        return AccountList.of(this).stream().allMatch(AccountList::reconcilable);
    }

    /** Reads and checks every setting; throws {@link SettingsException} naming the first bad one. */
    public static Settings load(Function<String, String> lookup) {
        ProviderSettings provider = ProviderSettings.load(lookup);
        SftpSettings sftp = SftpSettings.load(key -> {
            String v = lookup.apply(key);
            return v == null || v.isBlank() ? null : v.trim();
        });
        FolderSettings folders = FolderSettings.load(lookup, sftp);
        PickUpSettings pickUp = PickUpSettings.load(lookup);
        WebhookSettings webhook = WebhookSettings.load(lookup);
        TrackSettings track = TrackSettings.load(lookup);
        MoneyGuardSettings guards = MoneyGuardSettings.load(lookup);
        JournalSettings journal = JournalSettings.load(lookup);
        SubmitSettings submit = SubmitSettings.load(lookup);
        ManagementSettings management = ManagementSettings.load(lookup, webhook);
        return new Settings(provider, folders, pickUp, webhook, journal, submit, track, guards,
                ReportSettings.load(lookup), ReconcileSettings.load(lookup), NotifySettings.load(lookup),
                management, sftp, IntakeSettings.load(lookup), CallbackSettings.load(lookup),
                CustomerSettings.load(lookup));
    }

    /** An endpoint URI as it may be shown: its passwords and tokens masked. */
    public static String shownUri(String uri) {
        return org.apache.camel.util.URISupport.sanitizeUri(uri);
    }
}
