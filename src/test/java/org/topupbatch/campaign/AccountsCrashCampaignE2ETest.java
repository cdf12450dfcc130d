package org.topupbatch.campaign;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The crash campaign across two accounts ({@link AccountsCrashCampaign}; docs/accounts-and-dialects.md#several-accounts),
 * on the H2 journal: at least {@code campaign.kills} kills (default 4, about 30-45 s; a soak raises
 * it), seeded by {@code campaign.seed} (default: random, printed with the replay command). Fails on
 * any anomaly of {@link AccountsLedgerAudit} across both ledgers, a run that does not end with 0, a
 * 429 at either account or a secret in a log. {@code -Dcampaign.plant-double=true} plants a second
 * order for a row at the end (the audit must then fail: see also {@link AccountsLedgerAuditTest}).
 */
class AccountsCrashCampaignE2ETest {

    static final int KILLS = Integer.getInteger("campaign.kills", 4);

    @TempDir
    Path home;

    @Test
    void killed_at_any_moment_while_products_go_down_no_row_is_ordered_twice_across_accounts_or_lost() throws Exception {
        long seed = Long.getLong("campaign.seed", System.nanoTime());
        System.out.println("accounts crash campaign: seed " + seed + ", " + KILLS + " kills");
        // -Dcampaign.home=DIR keeps the product's folder (logs, journal, reports) to look at afterwards
        Path product = System.getProperty("campaign.home") == null ? home.resolve("product")
                : Path.of(System.getProperty("campaign.home")).resolve("accounts-" + seed + "-" + System.currentTimeMillis());
        AccountsCrashCampaign.Figures figures = new AccountsCrashCampaign(seed, KILLS, product).run();
        System.out.println(figures.describe());
        String replay = String.format("replay: mvn -B -ntp failsafe:integration-test failsafe:verify"
                + " -Dit.test=AccountsCrashCampaignE2ETest -Dcampaign.seed=%d -Dcampaign.kills=%d", seed, KILLS);
        assertThat(figures.anomalies()).as("%s%n%s", figures.describe(), replay).isEmpty();
        assertThat(figures.kills()).as("%s%n%s", figures.describe(), replay).isGreaterThanOrEqualTo(KILLS);
    }
}
