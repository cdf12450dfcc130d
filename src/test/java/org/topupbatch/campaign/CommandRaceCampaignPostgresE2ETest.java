package org.topupbatch.campaign;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The command race campaign of {@link CommandRaceCampaignE2ETest} on an embedded PostgreSQL journal. */
class CommandRaceCampaignPostgresE2ETest {

    @TempDir
    Path home;

    @Test
    void commands_beside_a_starting_and_stopping_product_on_postgresql_act_or_say_why_not_in_one_line() throws Exception {
        try (CampaignJournal journal = CampaignJournal.postgres(home.resolve("postgres"))) {
            CommandRaceCampaignE2ETest.campaign(journal, home);
        }
    }
}
