package org.topupbatch.journal;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class JournalDataSourceTest {

    @TempDir
    Path data;

    @Test
    void embeddedH2LivesInTheJournalFolderWithCrashSafeOptions() {
        String url = JournalDataSource.url(data, " ");
        assertThat(url).startsWith("jdbc:h2:file:" + data.toAbsolutePath().resolve("journal").resolve("journal"))
                .contains(";WRITE_DELAY=0").contains(";DB_CLOSE_ON_EXIT=FALSE").contains(";AUTO_SERVER=FALSE");
        try (JdbcJournal journal = JdbcJournal.open(data.resolve("nested/data"), null, null, null)) {
            assertThat(journal.reporting().batchesToReport()).isEmpty();
        }
        assertThat(Files.exists(data.resolve("nested/data/journal/journal.mv.db"))).isTrue();
    }

    @Test
    void aGivenUrlIsUsedAsIs() {
        assertThat(JournalDataSource.url(data, "jdbc:postgresql://db:5432/topup")).isEqualTo("jdbc:postgresql://db:5432/topup");
    }

    @Test
    void aDatabaseThatCannotBeOpenedGivesOneLineNamingTheUrlButNeverThePassword() {
        String url = "jdbc:postgresql://127.0.0.1:1/topup?password=urlsecret&connectTimeout=2";
        assertThatThrownBy(() -> JdbcJournal.open(data, url, "topup", "s3cr3t-pw"))
                .isInstanceOf(JournalException.class)
                .hasMessageContaining("cannot open the journal database jdbc:postgresql://127.0.0.1:1/topup?password=***")
                .satisfies(e -> {
                    assertThat(e.getMessage()).doesNotContain("s3cr3t-pw").doesNotContain("urlsecret").doesNotContain("\n");
                });
    }
}
