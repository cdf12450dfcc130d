package org.topupbatch.campaign;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The crash campaign of {@link CrashCampaignE2ETest} on an embedded PostgreSQL journal. */
class CrashCampaignPostgresE2ETest {

    @TempDir
    Path home;

    @Test
    void killed_at_any_moment_on_postgresql_nothing_is_lost_or_doubled() throws Exception {
        try (CampaignJournal journal = CampaignJournal.postgres(home.resolve("postgres"))) {
            CrashCampaignE2ETest.campaign(journal, home);
        }
    }
}
