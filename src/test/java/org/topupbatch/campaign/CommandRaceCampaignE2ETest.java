package org.topupbatch.campaign;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The command race campaign ({@link CommandRaceCampaign}) on the H2 journal, and with
 * {@link CommandRaceCampaignPostgresE2ETest} on PostgreSQL: {@code campaign.race-rounds} once runs
 * (default 3, about 2 minutes on a loaded machine), seeded by {@code campaign.seed} (default: random, printed).
 */
class CommandRaceCampaignE2ETest {

    static final int ROUNDS = Integer.getInteger("campaign.race-rounds", 3);

    @TempDir
    Path home;

    @Test
    void commands_beside_a_starting_and_stopping_product_on_h2_act_or_say_why_not_in_one_line() throws Exception {
        campaign(CampaignJournal.h2(), home);
    }

    static void campaign(CampaignJournal journal, Path home) throws Exception {
        long seed = Long.getLong("campaign.seed", System.nanoTime());
        System.out.println("command race campaign on " + journal.name() + ": seed " + seed + ", " + ROUNDS + " rounds");
        CommandRaceCampaign.Figures figures = new CommandRaceCampaign(seed, ROUNDS, journal, home.resolve("product")).run();
        System.out.println(figures.describe());
        assertThat(figures.anomalies())
                .as("%s%nreplay: mvn -B -ntp failsafe:integration-test failsafe:verify -Dit.test=%s -Dcampaign.seed=%d"
                        + " -Dcampaign.race-rounds=%d", figures.describe(), journal.name().equals("H2")
                        ? "CommandRaceCampaignE2ETest" : "CommandRaceCampaignPostgresE2ETest", seed, ROUNDS)
                .isEmpty();
        assertThat(figures.commands()).as(figures.describe()).isGreaterThanOrEqualTo(ROUNDS * CommandRaceCampaign.KINDS.size());
    }
}
