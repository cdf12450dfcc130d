package org.topupbatch.config;

import java.nio.file.Path;
import java.time.Clock;
import org.apache.camel.BindToRegistry;
import org.topupbatch.intake.BatchIntake;
import org.topupbatch.intake.CustomerRules;
import org.topupbatch.run.InboxSnapshot;
import org.topupbatch.settings.ProviderName;
import org.topupbatch.settings.Settings;
import org.topupbatch.settings.SettingsException;

/** Intake (routes/intake.yaml): which inbox files are taken, and reading, checking and recording a batch. */
public final class IntakeConfiguration extends AreaConfiguration {


    private final Settings settings;
    private final Clock clock;
    private final JournalConfiguration journal;
    private final ProviderConfiguration provider;
    private InboxSnapshot snapshot;
    private BatchIntake batchIntake;

    public IntakeConfiguration(Settings settings, Clock clock, JournalConfiguration journal, ProviderConfiguration provider) {
        this.settings = settings;
        this.clock = clock;
        this.journal = journal;
        this.provider = provider;
    }

    /** The intake's file filter: in once mode only the batches present at start. */
    @BindToRegistry("inboxSnapshot")
    public synchronized InboxSnapshot inboxSnapshot() {
        if (snapshot == null) {
            snapshot = settings.pickUp().mode() == org.topupbatch.settings.PickUpSettings.Mode.ONCE
                    ? InboxSnapshot.takenNow(settings.folders().inbox()) : InboxSnapshot.everything(settings.folders().inbox());
        }
        return snapshot;
    }

    /** One for the run: it counts the files it set aside, which once mode's end asks for. */
    @BindToRegistry("batchIntake")
    public synchronized BatchIntake batchIntake() {
        if (batchIntake == null) {
            batchIntake = new BatchIntake(journal.journal().intake(), provider.gateways(), provider.prices(),
                    customerRules(), settings.guards().balancePolicy(), settings.folders().data().resolve("archive"), clock, ProviderName.of(settings),
                    settings.pickUp().inputCharset(), settings.guards().repeatWindow());
            // every batch is routed, the one account of topup.base-url's too (a list of one: RowRouter)
            batchIntake.routedBy(provider::rowRouter);
        }
        return batchIntake;
    }


    /** A bad rules file stops the start with one line naming the setting. */
    private CustomerRules customerRules() {
        return customerRules(settings);
    }

    /** The customer rules the settings name (the built-in ones when none); a bad file: one line naming the setting. */
    static CustomerRules customerRules(Settings settings) {
        if (settings.guards().customerRules() == null) {
            return CustomerRules.loadDefault();
        }
        try {
            return CustomerRules.load(Path.of(settings.guards().customerRules()));
        } catch (RuntimeException e) {
            throw new SettingsException("topup.customer-rules: " + e.getMessage());
        }
    }
}
