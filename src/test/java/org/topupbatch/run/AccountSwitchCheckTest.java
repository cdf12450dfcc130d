package org.topupbatch.run;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Clock;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.topupbatch.journal.BatchWriter;
import org.topupbatch.journal.JdbcJournal;
import org.topupbatch.journal.NewRow;
import org.topupbatch.journal.RowRoute;
import org.topupbatch.journal.RowState;
import org.topupbatch.provider.Accounts;

/**
 * The start-up switch check compares each waiting order's journaled account with the accounts set now
 * (a real H2 journal): an order of the unnamed account of topup.base-url while only named accounts are
 * set, or the other way round, stops the start in one line; an order at a named account that topup.providers
 * no longer lists waits (AccountsLed), as before.
 */
class AccountSwitchCheckTest {

    @TempDir
    Path dir;

    private int journals;

    /** A fresh journal with one order (SENDING) waiting for its outcome at each account given (null: the unnamed account). */
    private JdbcJournal waitingAt(String... accounts) {
        JdbcJournal journal = JdbcJournal.open(dir.resolve("data-" + ++journals), null, null, null);
        try (BatchWriter writer = journal.intake().openBatch("b.csv", ',', org.topupbatch.journal.BatchEncoding.UTF_8, List.of(),
                "archive/b.csv", 1_000_000L, "p")) {
            int n = 0;
            for (String account : accounts) {
                n++;
                RowRoute route = account == null ? null : new RowRoute(List.of(new RowRoute.Stop(account, "TSEL10", 10_450)));
                writer.add(new NewRow(n - 1, n + 1, "R-" + n, "TSEL10", "08123456789" + n, null, null, List.of(),
                        RowState.ACCEPTED, 10_450L, null, "k" + n, route));
            }
            writer.commit();
        }
        // each order sent, its outcome not known yet (SENDING counts as waiting, as PENDING and UNKNOWN do)
        journal.submission().nextToSubmit(100).forEach(row -> assertThat(journal.submission().markSending(row.id(), java.time.Instant.now())).isTrue());
        assertThat(journal.submission().rowsInState(java.util.EnumSet.of(RowState.SENDING), 100)).hasSize(accounts.length);
        return journal;
    }

    private static String check(JdbcJournal journal, String... accountsNow) {
        Accounts now = new Accounts(Arrays.stream(accountsNow).map(name -> new Accounts.Account(name, null, null, false)).toList());
        try (journal) {
            return new StartupChecks(now, journal.submission(), journal.tracking(), "http://127.0.0.1:1", Clock.systemUTC(), null, null)
                    .switchedWithOrdersInFlight();
        }
    }

    @Test
    void orders_of_the_unnamed_account_stop_a_start_with_named_accounts() {
        assertThat(check(waitingAt(null, null, "main"), "main", "dfz")).isEqualTo("2 orders sent before topup.providers"
                + " was set still wait for their outcome; finish them with the settings they were sent with, then switch"
                + " (docs/accounts-and-dialects.md#several-accounts)");
    }

    @Test
    void orders_of_named_accounts_stop_a_start_with_the_unnamed_account() {
        assertThat(check(waitingAt("main", "dfz", null), (String) null)).startsWith("2 orders sent with topup.providers set"
                + " still wait for their outcome");
    }

    @Test
    void orders_at_accounts_of_the_same_kind_start() {
        assertThat(check(waitingAt(null, null), (String) null)).isNull();
        assertThat(check(waitingAt("main", "dfz"), "main", "dfz")).isNull();
        assertThat(check(waitingAt("old"), "main")).as("an account topup.providers no longer lists: its orders wait")
                .isNull();
    }
}
