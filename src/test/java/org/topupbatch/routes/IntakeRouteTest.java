package org.topupbatch.routes;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import org.apache.camel.builder.NotifyBuilder;
import org.junit.jupiter.api.Test;
import org.topupbatch.journal.RowRecord;
import org.topupbatch.journal.RowState;

/** intake.yaml: a CSV batch in the inbox is recorded in the journal and archived; other files stay. */
class IntakeRouteTest extends RouteTestSupport {

    static final String BATCH = """
            ref_id,product_sku,customer_no,customer_no_zone,max_price,order_no
            IN-0001,ML86,123456789,2345,,SO-1
            IN-0002,NOPE1,123456,,,SO-2
            IN-0003,FF100,12345678,,,SO-3
            """;

    @Override
    List<String> routes() {
        return List.of("intake");
    }

    @Test
    void a_csv_batch_is_recorded_row_by_row_and_archived_and_other_files_are_left_alone() throws Exception {
        // the other file goes in first: once the batch is taken, a poll has seen both
        Path notes = drop("notes.txt", "not a batch\n");
        NotifyBuilder taken = whenDone("intake", 1);
        drop("batch-a.csv", BATCH);

        await(taken, "batch-a.csv is taken");

        List<RowRecord> rows = rows("batch-a.csv");
        assertThat(rows).extracting(RowRecord::refId).containsExactly("IN-0001", "IN-0002", "IN-0003");
        assertThat(rows).extracting(RowRecord::state).containsExactly(RowState.ACCEPTED, RowState.REJECTED, RowState.ACCEPTED);
        assertThat(rows).extracting(RowRecord::line).containsExactly(2L, 3L, 4L);
        assertThat(rows.get(1).message()).isNotBlank();
        assertThat(rows.get(0).extras()).containsExactly("SO-1");

        List<Path> archived = list(settings.folders().data().resolve("archive"));
        assertThat(archived).hasSize(1);
        assertThat(archived.get(0).getFileName().toString()).startsWith("batch-a.").endsWith(".csv");
        assertThat(archived.get(0)).hasContent(BATCH);
        assertThat(batch("batch-a.csv").orElseThrow().archivedAs()).isEqualTo(archived.get(0).toAbsolutePath().toString());

        assertThat(notes).exists().hasContent("not a batch\n");
        assertThat(list(settings.folders().inbox())).containsExactly(notes);
        assertThat(batch("notes.txt")).isEmpty();
        assertThat(sandbox.ledger()).as("intake orders nothing").isEmpty();
    }
}
