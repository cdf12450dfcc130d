package org.topupbatch.run;

import org.topupbatch.settings.ProviderName;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.topupbatch.journal.BatchWriter;
import org.topupbatch.journal.JdbcJournal;
import org.topupbatch.journal.NewRow;
import org.topupbatch.journal.RowState;

/** A journal of sandbox trials is never carried into real orders, nor the other way round (a real H2 journal). */
class ProviderSwitchCheckTest {

    @TempDir
    Path dir;

    private int journals;

    /** A fresh journal whose batches were served by these providers. */
    private List<String> servedBy(String... providers) {
        try (JdbcJournal journal = JdbcJournal.open(dir.resolve("data-" + ++journals), null, null, null)) {
            int n = 0;
            for (String provider : providers) {
                n++;
                try (BatchWriter writer = journal.intake().openBatch("b" + n + ".csv", ',', org.topupbatch.journal.BatchEncoding.UTF_8, List.of(), "archive/b" + n, 1_000L, provider)) {
                    writer.add(new NewRow(0, 2, "R-" + n, "TSEL10", "081234567890", null, null, List.of(),
                            RowState.ACCEPTED, 10_450L, null));
                    writer.commit();
                }
            }
            return journal.providersServed();
        }
    }

    @Test
    void goingLiveOnTheTrialJournalIsRefusedInOneLine() {
        String problem = ProviderSwitchCheck.problem(servedBy("sandbox", "sandbox"), "api.example.com", "in data/");
        assertThat(problem).isEqualTo("the journal in data/ holds the embedded sandbox's trial orders; use a fresh"
                + " topup.data (TOPUP_DATA) or a fresh topup.db.url for the provider at api.example.com (move the old"
                + " one away to keep the trials)");
    }

    @Test
    void theSandboxOnARealJournalIsRefused() {
        assertThat(ProviderSwitchCheck.problem(servedBy("api.example.com"), ProviderName.SANDBOX, "in data/"))
                .startsWith("the journal in data/ holds orders of the provider at api.example.com; the embedded sandbox");
    }

    @Test
    void theSameKindOfProviderStarts() {
        assertThat(ProviderSwitchCheck.problem(servedBy("sandbox"), ProviderName.SANDBOX, "in data/")).isNull();
        assertThat(ProviderSwitchCheck.problem(servedBy(), "api.example.com", "in data/")).isNull();
    }

    @Test
    void anotherRealProviderIsTheOperatorsBusiness() {
        assertThat(ProviderSwitchCheck.problem(servedBy("old.example.com"), "api.example.com", "in data/")).isNull();
    }
}
