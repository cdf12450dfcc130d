package org.topupbatch.run;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.apache.camel.CamelContext;
import org.apache.camel.builder.RouteBuilder;
import org.apache.camel.impl.DefaultCamelContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.topupbatch.testing.Poll;

/**
 * The once-run filter with Camel's own file consumer, set up as the intake route reads the inbox
 * (readLock=changed keeps NAME.camelLock beside a batch while it is taken).
 */
class InboxSnapshotTest {

    @TempDir
    Path inbox;

    @Test
    void a_once_run_clears_the_lock_a_killed_run_left_beside_a_batch_already_archived() throws Exception {
        // a run killed after the batch moved to the archive and before its lock was deleted
        Files.writeString(inbox.resolve("batch-6.csv.camelLock"), "");
        Files.writeString(inbox.resolve("batch-7.csv"), "ref_id,product_code,customer_no\n");
        Files.writeString(inbox.resolve("batch-7.csv.camelLock"), "");

        InboxSnapshot snapshot = InboxSnapshot.takenNow(inbox);
        try (CamelContext camel = new DefaultCamelContext()) {
            camel.getRegistry().bind("inboxSnapshot", snapshot);
            camel.addRoutes(new RouteBuilder() {
                @Override
                public void configure() {
                    from("file:" + inbox + "?readLock=changed&readLockMinAge=2000&filter=#inboxSnapshot"
                            + "&includeExt=csv,xlsx&initialDelay=0&delay=60000&noop=true")
                            .routeId("inbox").log("taken");
                }
            });
            camel.start(); // Camel deletes orphan lock files before the consumer's first look at the folder
            // the clean-up deletes one lock after the other, in the folder's order: wait for both (a lock
            // the filter refused stays, and the wait runs out)
            Poll.until("both locks gone after the first look at the inbox", Duration.ofSeconds(20),
                    () -> !Files.exists(inbox.resolve("batch-6.csv.camelLock"))
                            && !Files.exists(inbox.resolve("batch-7.csv.camelLock")));
            assertThat(inbox.resolve("batch-7.csv")).exists();
        }
    }

    @Test
    void a_once_run_takes_only_the_batches_present_at_its_start() throws Exception {
        Files.writeString(inbox.resolve("early.csv"), "x");
        InboxSnapshot snapshot = InboxSnapshot.takenNow(inbox);
        Files.writeString(inbox.resolve("late.csv"), "x");

        assertThat(snapshot.accept(fileOf("early.csv"))).isTrue();
        assertThat(snapshot.accept(fileOf("late.csv"))).isFalse();
        assertThat(snapshot.allTaken()).isFalse();
        Files.delete(inbox.resolve("early.csv"));
        assertThat(snapshot.allTaken()).isTrue();
    }

    private org.apache.camel.component.file.GenericFile<Object> fileOf(String name) {
        org.apache.camel.component.file.GenericFile<Object> file = new org.apache.camel.component.file.GenericFile<>();
        file.setFileName(name);
        file.setFileNameOnly(name);
        return file;
    }
}
