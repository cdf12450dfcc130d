package org.topupbatch.campaign;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The crash campaign (README, "Crash campaign and fault matrix") on both journals: at least
 * {@code campaign.kills} kills (default 10, so 20 per run) each, seeded by {@code campaign.seed} (default: random,
 * printed). A soak is the same test with more kills.
 */
class CrashCampaignE2ETest {

    static final int KILLS = Integer.getInteger("campaign.kills", 10);

    @TempDir
    Path home;

    @Test
    void killed_at_any_moment_on_h2_nothing_is_lost_or_doubled() throws Exception {
        campaign(CampaignJournal.h2());
    }

    @Test
    void killed_at_any_moment_on_postgresql_nothing_is_lost_or_doubled() throws Exception {
        try (CampaignJournal journal = CampaignJournal.postgres(home.resolve("postgres"))) {
            campaign(journal);
        }
    }

    private void campaign(CampaignJournal journal) throws Exception {
        long seed = Long.getLong("campaign.seed", System.nanoTime());
        System.out.println("crash campaign on " + journal.name() + ": seed " + seed + ", " + KILLS + " kills");
        CrashCampaign.Figures figures = new CrashCampaign(seed, KILLS, journal, home.resolve("product")).run();
        System.out.println(figures.describe());
        assertThat(figures.anomalies())
                .as("%s%nreplay: mvn -B -ntp failsafe:integration-test failsafe:verify -Dit.test=CrashCampaignE2ETest"
                        + " -Dcampaign.seed=%d -Dcampaign.kills=%d", figures.describe(), seed, KILLS)
                .isEmpty();
        assertThat(figures.kills()).as(figures.describe()).isGreaterThanOrEqualTo(KILLS);
    }
}
