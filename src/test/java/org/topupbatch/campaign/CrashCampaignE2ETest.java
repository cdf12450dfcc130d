package org.topupbatch.campaign;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The crash campaign (docs/development.md#crash-campaign-and-fault-matrix) on the H2 journal, and with
 * {@link CrashCampaignPostgresE2ETest} on PostgreSQL (two classes, so that the suite's two test JVMs
 * can run them side by side): at least {@code campaign.kills} kills (default 10, so 20 per run; a soak raises it) each,
 * seeded by {@code campaign.seed} (default: random, printed). A soak is the same test with more kills.
 */
class CrashCampaignE2ETest {

    static final int KILLS = Integer.getInteger("campaign.kills", 10);

    @TempDir
    Path home;

    @Test
    void killed_at_any_moment_on_h2_nothing_is_lost_or_doubled() throws Exception {
        campaign(CampaignJournal.h2(), home);
    }

    static void campaign(CampaignJournal journal, Path home) throws Exception {
        long seed = Long.getLong("campaign.seed", System.nanoTime());
        System.out.println("crash campaign on " + journal.name() + ": seed " + seed + ", " + KILLS + " kills");
        CrashCampaign.Figures figures = new CrashCampaign(seed, KILLS, journal, home.resolve("product")).run();
        System.out.println(figures.describe());
        assertThat(figures.anomalies())
                .as("%s%nreplay: mvn -B -ntp failsafe:integration-test failsafe:verify -Dit.test=%s"
                        + " -Dcampaign.seed=%d -Dcampaign.kills=%d", figures.describe(),
                        journal.name().equals("H2") ? "CrashCampaignE2ETest" : "CrashCampaignPostgresE2ETest", seed, KILLS)
                .isEmpty();
        assertThat(figures.kills()).as(figures.describe()).isGreaterThanOrEqualTo(KILLS);
    }
}
