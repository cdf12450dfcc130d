package org.topupbatch.routes;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import org.apache.camel.builder.NotifyBuilder;
import org.junit.jupiter.api.Test;
import org.topupbatch.journal.BatchWriter;
import org.topupbatch.journal.NewRow;
import org.topupbatch.journal.RowState;

/**
 * intake.yaml after a crash between the journal commit and the archive move: the file is still in
 * the inbox although its batch is recorded. It must only be archived, not taken as a re-drop.
 */
class IntakeRecoveryRouteTest extends RouteTestSupport {

    @Override
    List<String> routes() {
        return List.of("intake");
    }

    @Test
    void a_file_recorded_before_a_crash_is_archived_where_the_journal_says_and_not_taken_again() throws Exception {
        String content = IntakeRouteTest.BATCH;
        String hash = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                .digest(content.getBytes(StandardCharsets.UTF_8))).substring(0, 12);
        Path archivedAs = settings.folders().data().resolve("archive").resolve("crashed.20261121-000000." + hash + ".csv")
                .toAbsolutePath();
        long batchId;
        try (BatchWriter writer = journal().intake().openBatch("crashed.csv", ',', List.of("order_no"), archivedAs.toString())) {
            writer.add(new NewRow(0, 2, "IN-0001", "ML86", "123456789", "2345", null, List.of("SO-1"),
                    RowState.ACCEPTED, 18525L, null));
            batchId = writer.commit();
        }

        NotifyBuilder taken = whenDone("intake", 1);
        Path file = drop("crashed.csv", content);
        await(taken, "crashed.csv is taken");
        assertThat(file).as("crashed.csv left the inbox").doesNotExist();

        assertThat(archivedAs).exists().hasContent(content);
        assertThat(batch("crashed.csv").orElseThrow().id()).as("no second batch").isEqualTo(batchId);
        assertThat(rows("crashed.csv")).extracting(r -> r.refId() + ":" + r.state()).containsExactly("IN-0001:ACCEPTED");
    }

    @Test
    void the_same_name_with_other_content_is_a_new_batch() throws Exception {
        Path archivedAs = settings.folders().data().resolve("archive").resolve("again.20261121-000000.000000000000.csv");
        long batchId;
        try (BatchWriter writer = journal().intake().openBatch("again.csv", ',', List.of(), archivedAs.toString())) {
            batchId = writer.commit();
        }
        NotifyBuilder taken = whenDone("intake", 1);
        Path file = drop("again.csv", IntakeRouteTest.BATCH);
        await(taken, "again.csv is taken");
        assertThat(file).as("again.csv left the inbox").doesNotExist();

        assertThat(batch("again.csv").orElseThrow().id()).isGreaterThan(batchId);
        assertThat(rows("again.csv")).hasSize(3);
        assertThat(archivedAs).doesNotExist();
    }
}
