package org.topupbatch.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.topupbatch.sandbox.SandboxConfig;
import org.topupbatch.sandbox.SandboxProvider;

/**
 * {@code plan} on the built jar with two named accounts (docs/accounts-and-dialects.md#several-accounts): two sandboxes
 * of the default dialect with different prices, stock and balances, a product map, one batch. Each row
 * goes to the account that would take it first, and each account's share is weighed against its
 * own balance; a run with several accounts is refused at start.
 */
class AccountsPlanE2ETest {

    @RegisterExtension
    final ProductFixture product = ProductFixture.withoutSandbox();
    final Path home = product.home();
    SandboxProvider main;
    SandboxProvider backup;
    final JarRun run = product.run();

    @BeforeEach
    void start() throws Exception {
        // gold tier: 95% of the catalog's price. main is out of FF50; backup sells TSEL10 and ML86 cheaper but
        // has a small deposit
        main = product.startSandbox(SandboxConfig.defaults().setSeed(7L).setUnavailable(List.of("FF50")));
        backup = product.startSandbox(SandboxConfig.defaults().setSeed(8L).setBalance(20_000)
                .setPriceChange("TSEL10:-20%,ML86:-10%"));
        SandboxConfig demo = SandboxConfig.defaults();
        run.env.put("TOPUP_PROVIDERS", "main,backup");
        for (String[] account : List.of(new String[] {"MAIN", main.baseUrl()}, new String[] {"BACKUP", backup.baseUrl()})) {
            run.env.put("TOPUP_PROVIDER_" + account[0] + "_BASE_URL", account[1]);
            run.env.put("TOPUP_PROVIDER_" + account[0] + "_API_KEY", demo.apiKey());
            run.env.put("TOPUP_PROVIDER_" + account[0] + "_API_SECRET", demo.apiSecret());
        }
        Path map = Files.writeString(home.resolve("product-map.csv"), """
                product,provider,sku,routing
                TSEL10,main,TSEL10,cheapest
                TSEL10,backup,TSEL10,cheapest
                """);
        run.env.put("TOPUP_PRODUCT_MAP", map.toString());
    }

    @Test
    void plan_routes_each_row_to_its_account_and_weighs_each_share_against_that_accounts_balance() throws Exception {
        Path batch = Files.writeString(home.resolve("orders.csv"), """
                ref_id,product_sku,customer_no,customer_no_zone,max_price
                R-1,ML86,123456789,2345,
                R-2,FF50,12345678,,
                R-3,TSEL10,081234567890,,
                R-4,ML86,987654321,1234,17000
                R-5,GP300K,budi@example.com,,
                R-6,NOPE1,12345678,,
                """);
        Process p = run.start("plan", batch.toString());
        assertThat(p.waitFor(2, TimeUnit.MINUTES)).isTrue();
        String out = run.output();
        assertThat(p.exitValue()).as(out).isEqualTo(2);
        assertThat(out)
                .contains("Plan of orders.csv (nothing is ordered; the file stays where it is), routed across 2 accounts: main, backup")
                .contains("Map:      " + home.resolve("product-map.csv") + ", 1 products mapped")
                // not in the map: every account in topup.providers order, so main first
                .contains("  to main  line 2  ref_id R-1: ML86, Rp 18.525")
                // unavailable at main: the next account takes it
                .contains("  to backup  line 3  ref_id R-2: FF50, Rp 6.935")
                // cheapest: backup's TSEL10 is 20% cheaper
                .contains("  to backup  line 4  ref_id R-3: TSEL10, Rp 8.208")
                // main's ML86 is dearer than the row's max_price, backup's is not
                .contains("  to backup  line 5  ref_id R-4: ML86, Rp 16.672")
                .contains("  no account  line 6  ref_id R-5: GP300K is not available now at any account that lists it (main, backup)")
                .contains("  rejected  line 7  ref_id R-6: product_sku NOPE1 is not in the price list")
                .contains("Rows:     6 read, 4 acceptable, 1 rejected, 1 no account can take")
                .contains("Cost:     Rp 50.340 for the acceptable rows at the prices of the accounts they go to")
                .contains("Account main (topup, " + main.baseUrl() + "): 1 row, Rp 18.525")
                .contains("  Balance:  Rp 10.000.000; it covers them (Rp 9.981.475 left)")
                .contains("Account backup (topup, " + backup.baseUrl() + "): 3 rows, Rp 31.815")
                .contains("  Balance:  Rp 20.000; it does NOT cover them: Rp 11.815 short")
                .doesNotContain(SandboxConfig.defaults().apiSecret());
        assertThat(main.ledger()).as("plan orders nothing").isEmpty();
        assertThat(backup.ledger()).isEmpty();
    }

    @Test
    void an_account_that_refuses_the_credentials_takes_no_row_and_the_others_still_plan() throws Exception {
        run.env.put("TOPUP_PROVIDER_MAIN_API_SECRET", "wrong-secret-9");
        Path batch = Files.writeString(home.resolve("orders.csv"), "ref_id,product_sku,customer_no\nR-1,FF50,12345678\n");
        Process p = run.start("plan", batch.toString());
        assertThat(p.waitFor(2, TimeUnit.MINUTES)).isTrue();
        String out = run.output();
        assertThat(p.exitValue()).as(out).isEqualTo(2);
        assertThat(out).contains("  account main could not be asked: it refused the credentials (INVALID_SIGNATURE); it takes no row")
                .contains("  to backup  line 2  ref_id R-1: FF50, Rp 6.935")
                .doesNotContain("wrong-secret-9");
    }

    @Test
    void a_run_stops_at_start_naming_the_account_that_refuses_the_credentials() throws Exception {
        run.env.put("TOPUP_PROVIDER_BACKUP_API_SECRET", "wrong-secret-9");
        run.drop("orders.csv", "ref_id,product_sku,customer_no\nR-1,FF50,12345678\n");
        int exit = run.runOnce(java.time.Duration.ofMinutes(2));
        String out = run.output();
        assertThat(exit).as(out).isEqualTo(1);
        assertThat(out).contains("account backup refused the credentials (INVALID_SIGNATURE)").doesNotContain("wrong-secret-9");
        assertThat(main.ledger()).isEmpty();
    }

    @Test
    void a_bad_product_map_stops_plan_with_one_line_naming_file_line_and_field() throws Exception {
        Path map = Files.writeString(home.resolve("bad-map.csv"), "product,provider,sku\nML86,bakup,ML86\n");
        run.env.put("TOPUP_PRODUCT_MAP", map.toString());
        Path batch = Files.writeString(home.resolve("orders.csv"), "ref_id,product_sku,customer_no\nR-1,FF50,12345678\n");
        Process p = run.start("plan", batch.toString());
        assertThat(p.waitFor(2, TimeUnit.MINUTES)).isTrue();
        assertThat(p.exitValue()).as(run.output()).isEqualTo(1);
        assertThat(run.output().strip()).isEqualTo("topup-batch: bad setting: topup.product-map: " + map
                + ":2: provider 'bakup' is not an account of topup.providers (main, backup)");
    }
}
